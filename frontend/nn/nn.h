// The nn layer: neural-network ops written only with the builders of frontend/ (primitives, views,
// derived ops). Each op is one small file; none adds a node kind. Everything is in halogen::nn.
#pragma once

#include "frontend/nn/activations.h"
#include "frontend/nn/attention.h"
#include "frontend/nn/batch_norm.h"
#include "frontend/nn/conv.h"
#include "frontend/nn/embedding.h"
#include "frontend/nn/group_norm.h"
#include "frontend/nn/layer_norm.h"
#include "frontend/nn/linear.h"
#include "frontend/nn/rms_norm.h"
#include "frontend/nn/rope.h"

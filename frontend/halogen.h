// Everything a user needs to build and interpret graphs: include this one header.
#pragma once

#include "frontend/array.h"
#include "frontend/derived.h"
#include "frontend/errors.h"
#include "frontend/graph.h"
#include "frontend/interpreter.h"
#include "frontend/primitives.h"
#include "frontend/views.h"

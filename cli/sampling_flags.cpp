// The sampling flags (sampling_flags.h).
#include "cli/sampling_flags.h"

#include <iostream>

#include <fmt/format.h>

#include "cli/flag_checks.h"
#include "cli/seed_flag.h"

namespace halogen {

void add_sampling_flags(CLI::App &command, SamplingFlags &f) {
    SamplingOptions &o = f.options;
    command.add_option("--temperature", o.temperature, "0: greedy (the first largest logit); else sample")->default_val(0);
    f.top_p = command.add_option("--top-p", o.top_p, "with --temperature: sample from the fewest likeliest ids whose "
                                                     "probability reaches this")
                  ->default_val(1);
    f.top_k = command.add_option("--top-k", o.top_k, "with --temperature: sample from the k likeliest ids (0: all)")
                  ->default_val(0)
                  ->check(at_least(0));
    f.min_p = command.add_option("--min-p", o.min_p, "with --temperature: drop ids less likely than this share of the "
                                                     "likeliest (0: none)")
                  ->default_val(0);
    command.add_option("--repeat-penalty", o.repeat_penalty, "divide the logits of ids seen in the last "
                                                             "--repeat-last-n by this (1: off)")
        ->default_val(1);
    command.add_option("--repeat-last-n", o.repeat_last_n, "how many of the last ids the penalty looks at")
        ->default_val(64)
        ->check(at_least(0));
    add_seed_flag(command, f.seed, "the sampler's seed");
}

SamplingOptions resolve_sampling(const std::string &command, const SamplingFlags &f) {
    SamplingOptions o = f.options;
    o.seed = resolve_seed(command, f.seed);
    Sampler{o};   // an option out of its range is the error, before any warning about it
    if (o.temperature == 0) {
        for (const CLI::Option *opt : {f.top_p, f.top_k, f.min_p}) {
            if (opt && opt->count() > 0) {
                std::cerr << fmt::format("{}: {} {} has no effect without --temperature: the picks are greedy\n", command,
                                         opt->get_name(), opt->results().front());
            }
        }
    }
    return o;
}

}  // namespace halogen

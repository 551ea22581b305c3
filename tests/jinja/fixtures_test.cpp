// The engine against Python's jinja2, rendering as Hugging Face does (tests/fixtures/jinja/,
// written by generate.py there): the four template families over every conversation, and one
// small template for each construct. Outputs must match byte for byte; where jinja2 failed,
// the engine must throw a TemplateError naming a line, with raise_exception's own message.
#include <gtest/gtest.h>

#include <ctime>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "jinja/chat_template.h"
#include "jinja/json_values.h"
#include "jinja/template.h"

namespace {

using halogen::jinja::TemplateError;
using halogen::jinja::TemplateRaised;
using json = nlohmann::ordered_json;

std::string read_text(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

json read_fixture(const std::string &name) { return json::parse(read_text(std::string(HALOGEN_JINJA_FIXTURES_DIR) + "/" + name)); }

// The fixed date generate.py renders strftime_now() with ("2024-07-26T09:30:00").
std::tm fixture_now(const json &fixture) {
    std::tm t{};
    std::istringstream in(fixture["now"].get<std::string>());
    in >> std::get_time(&t, "%Y-%m-%dT%H:%M:%S");
    EXPECT_FALSE(in.fail());
    t.tm_isdst = -1;
    std::mktime(&t);   // fills in the weekday and the day of the year
    return t;
}

// Compares one render, or its failure, with what jinja2 did; returns a line describing a mismatch.
template <typename Render>
std::string check(const json &entry, Render render) {
    try {
        const std::string got = render();
        if (entry.contains("expected")) {
            const std::string want = entry["expected"].get<std::string>();
            if (got == want) return "";
            return "output differs:\n  jinja2: " + json(want).dump() + "\n  engine: " + json(got).dump();
        }
        return "jinja2 failed (" + entry["error"].get<std::string>() + ": " + entry["message"].get<std::string>() +
               ") but the engine rendered " + json(got).dump();
    } catch (const TemplateRaised &e) {
        if (entry.value("error", "") == "raised" && e.message() == entry["message"].get<std::string>()) return "";
        return std::string("the engine raised: ") + e.what() + "; jinja2: " + entry.dump();
    } catch (const TemplateError &e) {
        const std::string what = e.what();
        if (!entry.contains("error")) return "the engine failed: " + what;
        if (entry["error"] == "raised") return "the engine failed (" + what + ") where jinja2 raised " + entry["message"].dump();
        if (what.rfind("line ", 0) != 0) return "the engine's error names no line: " + what;
        if (entry["error"] == "undefined" && what.find(entry["message"].get<std::string>()) == std::string::npos)
            return "the engine's error (" + what + ") does not say jinja2's " + entry["message"].dump();
        return "";
    }
}

TEST(JinjaFixtures, FourFamiliesMatchJinja2) {
    const json fixture = read_fixture("families.json");
    const std::tm now = fixture_now(fixture);
    int checked = 0;
    for (const json &r : fixture["renders"]) {
        const std::string tmpl = read_text(std::string(HALOGEN_JINJA_FIXTURES_DIR) + "/templates/" + r["template"].get<std::string>());
        halogen::jinja::ChatOptions options;
        options.add_generation_prompt = r["add_generation_prompt"].get<bool>();
        options.bos_token = r["bos_token"].get<std::string>();
        options.eos_token = r["eos_token"].get<std::string>();
        options.extra = r["extra"];
        if (r["with_tools"].get<bool>()) options.extra["tools"] = fixture["tools"];
        options.now = now;
        const json &messages = fixture["conversations"][r["conversation"].get<std::string>()];
        const std::string problem = check(r, [&] { return halogen::jinja::render_chat(tmpl, messages, options); });
        EXPECT_EQ(problem, "") << r["template"] << " on " << r["conversation"] << ", add_generation_prompt "
                               << r["add_generation_prompt"] << ", tools " << r["with_tools"] << ", extra " << r["extra"];
        ++checked;
    }
    EXPECT_GT(checked, 300);
}

TEST(JinjaFixtures, EveryConstructMatchesJinja2) {
    const json fixture = read_fixture("constructs.json");
    halogen::jinja::RenderOptions options;
    options.now = fixture_now(fixture);
    int checked = 0;
    for (const json &c : fixture["constructs"]) {
        const json &context = c.contains("context") ? c["context"] : fixture["context"];
        const std::string problem = check(c, [&] {
            halogen::jinja::Variables vars;
            for (const auto &[key, value] : context.items()) vars[key] = halogen::jinja::from_json(value);
            return halogen::jinja::Template(c["template"].get<std::string>()).render(vars, options);
        });
        EXPECT_EQ(problem, "") << c["name"] << ": " << c["template"];
        ++checked;
    }
    EXPECT_GT(checked, 100);
}

}  // namespace

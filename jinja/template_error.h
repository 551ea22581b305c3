// The typed error of the chat-template engine: a template that cannot be parsed or rendered.
// Its message names the construct and the line, e.g. "line 3: the filter 'wordwrap' is not
// supported"; raise_exception(msg) called by a template is a TemplateRaised carrying msg.
#pragma once

#include <string>

#include "frontend/errors.h"

namespace halogen::jinja {

// A template that cannot be parsed or rendered. line() is the template line (from 1), or 0 while
// the error is still on its way up to the expression that knows its line.
class TemplateError : public Error {
public:
    TemplateError(int line, const std::string &detail)
        : Error(line > 0 ? "line " + std::to_string(line) + ": " + detail : detail), line_(line), detail_(detail) {}
    int line() const { return line_; }
    const std::string &detail() const { return detail_; }   // the message without "line N: "

private:
    int line_;
    std::string detail_;
};

// The template called raise_exception(message): message() is the template's own text.
class TemplateRaised : public TemplateError {
public:
    TemplateRaised(int line, const std::string &message)
        : TemplateError(line, "raise_exception: " + message), message_(message) {}
    const std::string &message() const { return message_; }

private:
    std::string message_;
};

}  // namespace halogen::jinja

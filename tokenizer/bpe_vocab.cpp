// Added tokens from GGUF token types (bpe_vocab.h).
#include "tokenizer/bpe_vocab.h"

#include "frontend/errors.h"

namespace halogen {

std::vector<AddedToken> added_tokens_from_token_types(const std::vector<std::string> &tokens,
                                                      const std::vector<int32_t> &token_types) {
    if (tokens.size() != token_types.size())
        throw FormatError("tokenizer.ggml.token_type has " + std::to_string(token_types.size()) + " entries for " +
                          std::to_string(tokens.size()) + " tokens");
    std::vector<AddedToken> out;
    for (size_t i = 0; i < tokens.size(); ++i) {
        const auto type = static_cast<TokenType>(token_types[i]);
        if (type != TokenType::Control && type != TokenType::UserDefined) continue;
        AddedToken t;
        t.id = static_cast<int32_t>(i);
        t.content = tokens[i];
        t.special = type == TokenType::Control;
        t.normalized = !t.special;
        out.push_back(std::move(t));
    }
    return out;
}

}  // namespace halogen

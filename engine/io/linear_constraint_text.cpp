#include "io/linear_constraint_text.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

#include "io/utf8_text.h"

namespace sebo {

std::string ConstraintSyntaxError::describe() const { return "column " + std::to_string(column) + ": " + message; }

namespace {

bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

enum class TokenKind { Number, Name, Plus, Minus, Times, Divide, LessEqual, GreaterEqual, Equal, End, Error };

struct Token {
    TokenKind kind = TokenKind::End;
    std::size_t begin = 0, end = 0;  // byte offsets of the token's text
    double number = 0.0;
    std::string name;
    std::string error;  // Error tokens: what is wrong
};

bool is_relation(TokenKind k) { return k == TokenKind::LessEqual || k == TokenKind::GreaterEqual || k == TokenKind::Equal; }
bool is_sign(TokenKind k) { return k == TokenKind::Plus || k == TokenKind::Minus; }
bool is_factor(TokenKind k) { return k == TokenKind::Number || k == TokenKind::Name; }

class Lexer {
public:
    explicit Lexer(std::string_view text) : text_(text) {}

    const Token& peek() {
        if (!peeked_) {
            next_ = scan();
            peeked_ = true;
        }
        return next_;
    }
    Token next() {
        peek();
        peeked_ = false;
        return next_;
    }

private:
    Token scan() {
        while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\r' || text_[pos_] == '\n'))
            ++pos_;
        Token t;
        t.begin = pos_;
        if (pos_ >= text_.size()) {
            t.kind = TokenKind::End;
            t.end = pos_;
            return t;
        }
        const char c = text_[pos_];
        const auto single = [&](TokenKind kind, std::size_t length) {
            t.kind = kind;
            pos_ += length;
            t.end = pos_;
            return t;
        };
        const auto error = [&](std::size_t length, std::string message) {
            t.kind = TokenKind::Error;
            pos_ += length;
            t.end = pos_;
            t.error = std::move(message);
            return t;
        };
        const char after = pos_ + 1 < text_.size() ? text_[pos_ + 1] : '\0';
        switch (c) {
        case '+': return single(TokenKind::Plus, 1);
        case '-': return single(TokenKind::Minus, 1);
        case '*': return single(TokenKind::Times, 1);
        case '/': return single(TokenKind::Divide, 1);
        case '<':
            if (after == '=') return single(TokenKind::LessEqual, 2);
            return error(1, "strict '<' is not supported; use '<='");
        case '>':
            if (after == '=') return single(TokenKind::GreaterEqual, 2);
            return error(1, "strict '>' is not supported; use '>='");
        case '=': return single(TokenKind::Equal, after == '=' ? 2 : 1);
        case '!': return error(after == '=' ? 2 : 1, "'!=' is not a linear constraint; use '<=', '>=' or '='");
        case '(':
        case ')': return error(1, "parentheses are not supported; multiply out, e.g. 2*fa + 2*fb instead of 2*(fa + fb)");
        case '\'': return quoted_name();
        default: break;
        }
        if (text_.substr(pos_, kLessEqualSign.size()) == kLessEqualSign) return single(TokenKind::LessEqual, kLessEqualSign.size());
        if (text_.substr(pos_, kGreaterEqualSign.size()) == kGreaterEqualSign) return single(TokenKind::GreaterEqual, kGreaterEqualSign.size());
        if (text_.substr(pos_, kMinusSign.size()) == kMinusSign) return single(TokenKind::Minus, kMinusSign.size());
        if (is_digit(static_cast<unsigned char>(c)) || (c == '.' && is_digit(static_cast<unsigned char>(after)))) return number();
        if (constraint_name_starts(text_, pos_)) {
            while (pos_ < text_.size() && constraint_name_continues(text_, pos_)) ++pos_;
            t.kind = TokenKind::Name;
            t.end = pos_;
            t.name = std::string(text_.substr(t.begin, t.end - t.begin));
            return t;
        }
        // One character (all its UTF-8 bytes) that has no meaning here.
        std::size_t length = 1;
        while (pos_ + length < text_.size() && (static_cast<unsigned char>(text_[pos_ + length]) & 0xC0) == 0x80) ++length;
        return error(length, "unexpected character");
    }

    Token number() {
        Token t;
        t.begin = pos_;
        while (pos_ < text_.size() && is_digit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
        if (pos_ < text_.size() && text_[pos_] == '.') {
            ++pos_;
            while (pos_ < text_.size() && is_digit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
        }
        // An exponent only when digits follow ("2e3", "2e-3"); otherwise "e" starts the next token.
        if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
            std::size_t p = pos_ + 1;
            if (p < text_.size() && (text_[p] == '+' || text_[p] == '-')) ++p;
            if (p < text_.size() && is_digit(static_cast<unsigned char>(text_[p]))) {
                pos_ = p;
                while (pos_ < text_.size() && is_digit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
            }
        }
        t.end = pos_;
        const char* first = text_.data() + t.begin;
        const char* last = text_.data() + t.end;
        double value = 0.0;
        const auto [stop, ec] = std::from_chars(first, last, value, std::chars_format::general);
        if (ec != std::errc{} || stop != last || !std::isfinite(value)) {
            t.kind = TokenKind::Error;
            t.error = "the number is out of range";
            return t;
        }
        t.kind = TokenKind::Number;
        t.number = value;
        return t;
    }

    Token quoted_name() {
        Token t;
        t.begin = pos_;
        ++pos_;
        std::string name;
        while (true) {
            if (pos_ >= text_.size()) {
                t.kind = TokenKind::Error;
                t.end = pos_;
                t.error = "unterminated quoted name: a name in quotes ends with ' (write '' for a quote inside it)";
                return t;
            }
            if (text_[pos_] == '\'') {
                if (pos_ + 1 < text_.size() && text_[pos_ + 1] == '\'') {
                    name += '\'';
                    pos_ += 2;
                    continue;
                }
                ++pos_;
                break;
            }
            name += text_[pos_++];
        }
        t.end = pos_;
        if (name.empty()) {
            t.kind = TokenKind::Error;
            t.error = "empty parameter name ''";
            return t;
        }
        t.kind = TokenKind::Name;
        t.name = std::move(name);
        return t;
    }

    std::string_view text_;
    std::size_t pos_ = 0;
    Token next_;
    bool peeked_ = false;
};

std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0u : 1u)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

// Thrown inside the parser only; parse_linear_constraint turns it into a ConstraintSyntaxError.
struct ParseFailure {
    std::size_t offset;
    std::string found;
    std::string message;
};

// One side of the relation: merged parameter terms and the sum of the numbers.
struct Side {
    std::vector<LinearTerm> terms;
    double constant = 0.0;
    bool names_parameter = false;
};

void add_term(std::vector<LinearTerm>& terms, int parameter, double coefficient) {
    for (LinearTerm& t : terms) {
        if (t.parameter == parameter) {
            t.coefficient += coefficient;
            return;
        }
    }
    terms.push_back({parameter, coefficient});
}

class Parser {
public:
    Parser(std::string_view text, const std::vector<ConstraintVariable>& variables) : text_(text), variables_(variables), lexer_(text) {}

    LinearConstraint parse() {
        Side left = expression(nullptr);
        const Token relation = lexer_.next();
        if (!is_relation(relation.kind)) {
            if (relation.kind == TokenKind::End)
                fail(relation, "missing comparison: expected '<=', '>=' or '=' at the end of the text");
            fail(relation, "expected '+', '-', '*', '/' or a comparison ('<=', '>=', '='), found " + found_text(relation));
        }
        Side right = expression(&relation);
        const Token rest = lexer_.next();
        if (is_relation(rest.kind))
            fail(rest, "a second comparison: write a chain such as 0 <= fa <= 1 as two constraints");
        if (rest.kind != TokenKind::End)
            fail(rest, "expected '+', '-', '*', '/' or the end of the constraint, found " + found_text(rest));

        LinearConstraint c;
        c.relation = relation.kind == TokenKind::LessEqual      ? ConstraintRelation::LessEqual
                     : relation.kind == TokenKind::GreaterEqual ? ConstraintRelation::GreaterEqual
                                                                : ConstraintRelation::Equal;
        // Parameters go to the left: a left side of numbers only swaps the sides ("1 >= fa").
        if (!left.names_parameter && right.names_parameter) {
            std::swap(left, right);
            if (c.relation == ConstraintRelation::LessEqual) c.relation = ConstraintRelation::GreaterEqual;
            else if (c.relation == ConstraintRelation::GreaterEqual) c.relation = ConstraintRelation::LessEqual;
        }
        std::vector<LinearTerm> terms = left.terms;
        for (const LinearTerm& t : right.terms) add_term(terms, t.parameter, -t.coefficient);
        for (const LinearTerm& t : terms) {
            if (!std::isfinite(t.coefficient)) fail_at(0, text_, "a coefficient is out of range after adding up the terms");
            if (t.coefficient != 0.0) c.terms.push_back(t);
        }
        if (c.terms.empty()) {
            fail_at(0, text_,
                    left.names_parameter || right.names_parameter ? "the parameter terms cancel out: no parameter is left"
                                                                  : "the constraint names no parameter");
        }
        c.bound = right.constant - left.constant;
        if (!std::isfinite(c.bound)) fail_at(0, text_, "the numbers add up to a value out of range");
        if (c.bound == 0.0) c.bound = 0.0;  // no "-0"
        return c;
    }

private:
    [[noreturn]] void fail_at(std::size_t offset, std::string_view found, std::string message) {
        throw ParseFailure{offset, std::string(found), std::move(message)};
    }
    [[noreturn]] void fail(const Token& t, std::string message) {
        fail_at(t.begin, text_.substr(t.begin, t.end - t.begin), std::move(message));
    }

    std::string found_text(const Token& t) const {
        if (t.kind == TokenKind::End) return "the end of the text";
        return "'" + escape_invalid_utf8(text_.substr(t.begin, t.end - t.begin)) + "'";
    }

    // Reads the next token, failing on lexical errors.
    Token take() {
        Token t = lexer_.next();
        if (t.kind == TokenKind::Error) fail(t, t.error);
        return t;
    }
    const Token& look() {
        const Token& t = lexer_.peek();
        if (t.kind == TokenKind::Error) fail(t, t.error);
        return t;
    }

    // `after`: the relation token before a right-hand side, for messages ("after '<='").
    Side expression(const Token* after) {
        Side side;
        double sign = 1.0;
        std::string previous = after ? found_text(*after) : std::string();
        if (is_sign(look().kind)) {
            const Token s = take();
            sign = s.kind == TokenKind::Minus ? -1.0 : 1.0;
            previous = found_text(s);
        }
        term(side, sign, previous);
        while (is_sign(look().kind)) {
            const Token s = take();
            if (is_sign(look().kind)) {
                const Token& second = look();
                fail(second, "two signs in a row: expected a parameter or a number after " + found_text(s) + ", found " +
                                 found_text(second));
            }
            term(side, s.kind == TokenKind::Minus ? -1.0 : 1.0, found_text(s));
        }
        if (is_factor(look().kind)) {
            const Token& next = look();
            std::string hint;
            if (!last_number_.empty() && next.kind == TokenKind::Name)
                hint = " (write a product as " + last_number_ + "*" + escape_invalid_utf8(constraint_name_text(next.name)) + ")";
            fail(next, "expected an operator ('+', '-', '*', '/') or a comparison before " + found_text(next) + hint);
        }
        return side;
    }

    // Reads one term; `previous` names what came before it, for messages.
    void term(Side& side, double sign, const std::string& previous) {
        const Token first = factor(previous.empty() ? std::string("expected a parameter or a number")
                                                    : "expected a parameter or a number after " + previous);
        double coefficient = sign;
        std::optional<int> parameter;
        apply(first, TokenKind::Times, coefficient, parameter);
        while (look().kind == TokenKind::Times || look().kind == TokenKind::Divide) {
            const Token op = take();
            const Token f = factor("expected a parameter or a number after " + found_text(op));
            apply(f, op.kind, coefficient, parameter);
        }
        if (!std::isfinite(coefficient)) fail_at(first.begin, text_.substr(first.begin, first.end - first.begin), "the coefficient is out of range");
        if (parameter) {
            add_term(side.terms, *parameter, coefficient);
            side.names_parameter = true;
        } else {
            side.constant += coefficient;
        }
    }

    Token factor(const std::string& expectation) {
        const Token& next = look();
        if (!is_factor(next.kind)) fail(next, expectation + ", found " + found_text(next));
        Token t = take();
        last_number_ = t.kind == TokenKind::Number ? std::string(text_.substr(t.begin, t.end - t.begin)) : std::string();
        return t;
    }

    void apply(const Token& f, TokenKind op, double& coefficient, std::optional<int>& parameter) {
        if (f.kind == TokenKind::Number) {
            if (op == TokenKind::Divide) {
                if (f.number == 0.0) fail(f, "division by zero");
                coefficient /= f.number;
            } else {
                coefficient *= f.number;
            }
            return;
        }
        if (op == TokenKind::Divide) fail(f, "division by a parameter is not linear");
        if (parameter) fail(f, "a product of two parameters is not linear");
        parameter = lookup(f);
    }

    int lookup(const Token& name) {
        for (std::size_t i = 0; i < variables_.size(); ++i) {
            if (variables_[i].name != name.name) continue;
            if (variables_[i].excluded)
                fail(name, "parameter '" + escape_invalid_utf8(name.name) + "' cannot appear in a linear constraint: " + *variables_[i].excluded);
            return static_cast<int>(i);
        }
        std::string message = "unknown parameter '" + escape_invalid_utf8(name.name) + "'";
        std::size_t best = std::numeric_limits<std::size_t>::max();
        const std::string* suggestion = nullptr;
        for (const ConstraintVariable& v : variables_) {
            const std::size_t d = edit_distance(name.name, v.name);
            if (d < best) {
                best = d;
                suggestion = &v.name;
            }
        }
        if (suggestion && best <= 2 && best < name.name.size())
            message += " (did you mean " + escape_invalid_utf8(constraint_name_text(*suggestion)) + "?)";
        fail(name, message);
    }

    std::string_view text_;
    const std::vector<ConstraintVariable>& variables_;
    Lexer lexer_;
    std::string last_number_;  // the text of the last factor read, when it was a number
};

int column_of(std::string_view text, std::size_t offset) {
    int column = 1;
    for (std::size_t i = 0; i < offset && i < text.size(); ++i)
        if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) ++column;
    return column;
}

}  // namespace

ConstraintParse parse_linear_constraint(std::string_view text, const std::vector<ConstraintVariable>& variables) {
    ConstraintParse result;
    if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
        result.error = {1, "", "the constraint is empty"};
        return result;
    }
    try {
        result.constraint = Parser(text, variables).parse();
    } catch (const ParseFailure& failure) {
        result.error = {column_of(text, failure.offset), escape_invalid_utf8(failure.found), failure.message};
    }
    return result;
}

}  // namespace sebo

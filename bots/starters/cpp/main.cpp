// Monsoon starter bot in C++17, one file, standard library only.
//
// Speaks the JSON-lines bot protocol (docs/bot-protocol.md): one JSON object per line on stdin,
// one answer per line on stdout. Diagnostics go to stderr, never stdout. It plays any of the
// four games: each request lists the legal actions, and the bot picks one uniformly at random.
// Replace choose_action() with your own strategy.
//
// There is no JSON library here: a small scanner finds the top-level fields the bot needs and
// keeps every value as its raw JSON text, so an action is sent back exactly as it arrived.
//
// Build: g++ -std=c++17 -O2 -static -s -o mybot main.cpp

#include <cstddef>
#include <iostream>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace json {

std::size_t skip_space(const std::string& text, std::size_t at) {
    while (at < text.size() && (text[at] == ' ' || text[at] == '\t' || text[at] == '\n' ||
                                text[at] == '\r')) {
        ++at;
    }
    return at;
}

// The index just past the JSON value starting at `at` (strings, numbers, literals, arrays
// and objects, nested to any depth); throws std::runtime_error on malformed input.
std::size_t skip_value(const std::string& text, std::size_t at) {
    at = skip_space(text, at);
    if (at >= text.size()) throw std::runtime_error("unexpected end of JSON");
    char first = text[at];
    if (first == '"') {
        for (++at; at < text.size(); ++at) {
            if (text[at] == '\\') {
                ++at;  // skip the escaped character (\uXXXX needs nothing more)
            } else if (text[at] == '"') {
                return at + 1;
            }
        }
        throw std::runtime_error("unterminated JSON string");
    }
    if (first == '[' || first == '{') {
        char close = first == '[' ? ']' : '}';
        at = skip_space(text, at + 1);
        if (at < text.size() && text[at] == close) return at + 1;
        while (true) {
            if (first == '{') {
                at = skip_value(text, at);  // the key
                at = skip_space(text, at);
                if (at >= text.size() || text[at] != ':') throw std::runtime_error("expected ':'");
                ++at;
            }
            at = skip_space(text, skip_value(text, at));
            if (at >= text.size()) throw std::runtime_error("unexpected end of JSON");
            if (text[at] == close) return at + 1;
            if (text[at] != ',') throw std::runtime_error("expected ',' in JSON");
            ++at;
        }
    }
    std::size_t end = at;
    while (end < text.size() && text[end] != ',' && text[end] != '}' && text[end] != ']' &&
           text[end] != ' ' && text[end] != '\t' && text[end] != '\r' && text[end] != '\n') {
        ++end;
    }
    if (end == at) throw std::runtime_error("expected a JSON value");
    return end;
}

// The raw JSON text of the top-level field `key` of an object, or "" when it is absent.
// Keys are compared as written: the protocol's keys contain no escapes.
std::string field(const std::string& object, const std::string& key) {
    std::size_t at = skip_space(object, 0);
    if (at >= object.size() || object[at] != '{') throw std::runtime_error("expected an object");
    const std::string quoted = "\"" + key + "\"";
    at = skip_space(object, at + 1);
    if (at < object.size() && object[at] == '}') return "";
    while (true) {
        std::size_t key_end = skip_value(object, at);
        bool wanted = object.compare(at, key_end - at, quoted) == 0;
        at = skip_space(object, key_end);
        if (at >= object.size() || object[at] != ':') throw std::runtime_error("expected ':'");
        std::size_t value_start = skip_space(object, at + 1);
        std::size_t value_end = skip_value(object, value_start);
        if (wanted) return object.substr(value_start, value_end - value_start);
        at = skip_space(object, value_end);
        if (at >= object.size() || object[at] != ',') return "";
        at = skip_space(object, at + 1);
    }
}

// The raw JSON text of each element of an array.
std::vector<std::string> items(const std::string& array) {
    std::vector<std::string> result;
    std::size_t at = skip_space(array, 0);
    if (at >= array.size() || array[at] != '[') throw std::runtime_error("expected an array");
    at = skip_space(array, at + 1);
    if (at < array.size() && array[at] == ']') return result;
    while (true) {
        std::size_t end = skip_value(array, at);
        result.push_back(array.substr(at, end - at));
        at = skip_space(array, end);
        if (at >= array.size() || array[at] != ',') return result;
        at = skip_space(array, at + 1);
    }
}

}  // namespace json

std::mt19937_64 rng{std::random_device{}()};

// observation: the raw JSON of what your seat may know (docs/games/*.md); legal_actions: the
// raw JSON of each legal action (never empty). Return one of them unchanged.
std::string choose_action(const std::string& observation,
                          const std::vector<std::string>& legal_actions) {
    (void)observation;
    std::uniform_int_distribution<std::size_t> pick(0, legal_actions.size() - 1);
    return legal_actions[pick(rng)];
}

int main() {
    std::ios::sync_with_stdio(false);
    std::string line;
    while (std::getline(std::cin, line)) {
        if (json::skip_space(line, 0) == line.size()) continue;
        const std::string type = json::field(line, "type");
        if (type == "\"start\"") {
            if (json::field(line, "protocol") != "1") {
                std::cerr << "this bot speaks protocol 1, the runner "
                          << json::field(line, "protocol") << std::endl;
            }
            std::cout << "{\"ready\": true}" << std::endl;  // std::endl flushes
        } else if (type == "\"request\"") {
            const auto legal = json::items(json::field(line, "legal_actions"));
            const auto action = choose_action(json::field(line, "observation"), legal);
            std::cout << "{\"action\": " << action << "}" << std::endl;
        } else if (type == "\"end\"") {
            std::cerr << "result: ranking " << json::field(line, "ranking") << std::endl;
            if (json::field(line, "next") != "true") break;
            // The worker keeps this process for another match ("matches": "many" in
            // monsoon.json): say so, then write nothing until the next "start" arrives.
            std::cout << "{\"done\": true}" << std::endl;
        }
        // Unknown message types are ignored (protocol version 1 may add optional ones).
    }
    return 0;
}

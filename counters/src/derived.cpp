// SPDX-License-Identifier: MIT
#include "replayscope/counters/derived.h"

#include <array>
#include <cctype>
#include <cmath>
#include <cstdlib>

namespace rs::counters {

namespace {

// rocprofiler-sdk source/lib/rocprofiler-sdk/counters/yaml/counter_defs.yaml (commit 8ab1ed78): the
// entries with a gfx90a expression whose every input is in the catalogue. Its reduce(X,sum) is X here
// (the engine already sums a counter's instances) and reduce(X,max) of a GRBM counter is X too (GRBM has
// one instance). Descriptions are ours.
constexpr std::array kDerived{
    DerivedDef{"VALUInsts", "SQ_INSTS_VALU / SQ_WAVES", "instructions per wave",
               "Vector ALU instructions issued per wave"},
    DerivedDef{"SALUInsts", "SQ_INSTS_SALU / SQ_WAVES", "instructions per wave",
               "Scalar ALU instructions issued per wave"},
    DerivedDef{"SFetchInsts", "SQ_INSTS_SMEM / SQ_WAVES", "instructions per wave",
               "Scalar memory (fetch) instructions issued per wave"},
    DerivedDef{"Wavefronts", "SQ_WAVES", "waves", "Waves the dispatch launched"},
    DerivedDef{"SQ_WAVES_sum", "SQ_WAVES", "waves", "Waves the dispatch launched, over every shader engine"},
    DerivedDef{"GPUBusy", "100 * GRBM_GUI_ACTIVE / GRBM_COUNT", "percent",
               "Share of the GPU clock cycles the graphics pipeline was busy"},
    DerivedDef{"GPU_UTIL", "100 * GRBM_GUI_ACTIVE / GRBM_COUNT", "percent", "The same figure as GPUBusy"},
    DerivedDef{"GpuUtil", "100 * GRBM_GUI_ACTIVE / GRBM_COUNT", "percent", "The same figure as GPUBusy"},
    DerivedDef{"L2CacheHit", "100 * TCC_HIT / (TCC_HIT + TCC_MISS)", "percent",
               "Share of the L2 lookups that hit"},
    DerivedDef{"MfmaFlops",
               "(SQ_INSTS_VALU_MFMA_MOPS_F16 + SQ_INSTS_VALU_MFMA_MOPS_BF16 + SQ_INSTS_VALU_MFMA_MOPS_F32 + "
               "SQ_INSTS_VALU_MFMA_MOPS_F64) * 512",
               "FLOP", "Floating-point operations of matrix multiply-add instructions, every type"},
    DerivedDef{"MfmaFlopsF16", "SQ_INSTS_VALU_MFMA_MOPS_F16 * 512", "FLOP",
               "Floating-point operations of matrix multiply-add instructions on F16 data"},
    DerivedDef{"MfmaFlopsBF16", "SQ_INSTS_VALU_MFMA_MOPS_BF16 * 512", "FLOP",
               "Floating-point operations of matrix multiply-add instructions on BF16 data"},
    DerivedDef{"MfmaFlopsF32", "SQ_INSTS_VALU_MFMA_MOPS_F32 * 512", "FLOP",
               "Floating-point operations of matrix multiply-add instructions on F32 data"},
    DerivedDef{"MfmaFlopsF64", "SQ_INSTS_VALU_MFMA_MOPS_F64 * 512", "FLOP",
               "Floating-point operations of matrix multiply-add instructions on F64 data"},
    DerivedDef{"TCC_REQ_sum", "TCC_REQ", "requests", "L2 requests of every kind, over every L2 channel"},
    DerivedDef{"TCC_READ_sum", "TCC_READ", "requests", "L2 read requests, over every L2 channel"},
    DerivedDef{"TCC_WRITE_sum", "TCC_WRITE", "requests", "L2 write requests, over every L2 channel"},
    DerivedDef{"TCC_HIT_sum", "TCC_HIT", "requests", "L2 hits, over every L2 channel"},
    DerivedDef{"TCC_MISS_sum", "TCC_MISS", "requests", "L2 misses, over every L2 channel"},
    DerivedDef{"TCC_EA_RDREQ_sum", "TCC_EA_RDREQ", "requests",
               "Read requests from L2 to memory, over every L2 channel"},
    DerivedDef{"TCC_EA_WRREQ_sum", "TCC_EA_WRREQ", "requests",
               "Write and atomic requests from L2 to memory, over every L2 channel"},
    DerivedDef{"TCP_TOTAL_CACHE_ACCESSES_sum", "TCP_TOTAL_CACHE_ACCESSES", "accesses",
               "Vector L1 cache-line accesses, over every compute unit"},
    DerivedDef{"TCP_TCC_READ_REQ_sum", "TCP_TCC_READ_REQ", "requests",
               "Read requests from vector L1 to L2, over every compute unit"},
    DerivedDef{"TCP_TCC_WRITE_REQ_sum", "TCP_TCC_WRITE_REQ", "requests",
               "Write requests from vector L1 to L2, over every compute unit"},
};

bool name_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

/// Recursive descent over `text`: expr = term {(+|-) term}, term = factor {(*|/) factor},
/// factor = number | name | ( expr ) | - factor. Any failure (syntax, missing input, zero divisor) ends
/// the evaluation with no value.
class Evaluator {
  public:
    Evaluator(std::string_view text, const CounterLookup& lookup) : text_(text), lookup_(lookup) {}

    std::optional<double> run() {
        const std::optional<double> v = expr();
        skip_blanks();
        if (!v || pos_ != text_.size() || !std::isfinite(*v)) {
            return std::nullopt;
        }
        return v;
    }

  private:
    void skip_blanks() {
        while (pos_ < text_.size() && text_[pos_] == ' ') {
            ++pos_;
        }
    }
    bool take(char c) {
        skip_blanks();
        if (pos_ < text_.size() && text_[pos_] == c) {
            ++pos_;
            return true;
        }
        return false;
    }
    std::optional<double> expr() {
        std::optional<double> v = term();
        while (v) {
            if (take('+')) {
                const auto r = term();
                v = r ? std::optional<double>(*v + *r) : std::nullopt;
            } else if (take('-')) {
                const auto r = term();
                v = r ? std::optional<double>(*v - *r) : std::nullopt;
            } else {
                break;
            }
        }
        return v;
    }
    std::optional<double> term() {
        std::optional<double> v = factor();
        while (v) {
            if (take('*')) {
                const auto r = factor();
                v = r ? std::optional<double>(*v * *r) : std::nullopt;
            } else if (take('/')) {
                const auto r = factor();
                v = r && *r != 0.0 ? std::optional<double>(*v / *r) : std::nullopt;
            } else {
                break;
            }
        }
        return v;
    }
    std::optional<double> factor() {
        if (take('(')) {
            const auto v = expr();
            return v && take(')') ? v : std::nullopt;
        }
        if (take('-')) {
            const auto v = factor();
            return v ? std::optional<double>(-*v) : std::nullopt;
        }
        skip_blanks();
        const size_t start = pos_;
        if (pos_ < text_.size() && (std::isdigit(static_cast<unsigned char>(text_[pos_])) != 0)) {
            while (pos_ < text_.size() &&
                   (std::isdigit(static_cast<unsigned char>(text_[pos_])) != 0 || text_[pos_] == '.')) {
                ++pos_;
            }
            const std::string number(text_.substr(start, pos_ - start));
            char* end = nullptr;
            const double v = std::strtod(number.c_str(), &end);
            return end == number.c_str() + number.size() ? std::optional<double>(v) : std::nullopt;
        }
        while (pos_ < text_.size() && name_char(text_[pos_])) {
            ++pos_;
        }
        if (pos_ == start || !lookup_) {
            return std::nullopt;
        }
        return lookup_(text_.substr(start, pos_ - start));
    }

    std::string_view text_;
    const CounterLookup& lookup_;
    size_t pos_ = 0;
};

} // namespace

std::span<const DerivedDef> gfx90a_derived() noexcept {
    return kDerived;
}

const DerivedDef* find_derived(std::string_view name) noexcept {
    for (const DerivedDef& def : kDerived) {
        if (def.name == name) {
            return &def;
        }
    }
    return nullptr;
}

std::vector<std::string> expression_inputs(std::string_view expression) {
    std::vector<std::string> out;
    size_t i = 0;
    while (i < expression.size()) {
        if (!name_char(expression[i])) {
            ++i;
            continue;
        }
        const size_t start = i;
        while (i < expression.size() && name_char(expression[i])) {
            ++i;
        }
        const std::string token(expression.substr(start, i - start));
        const bool number = std::isdigit(static_cast<unsigned char>(token.front())) != 0;
        bool seen = false;
        for (const std::string& name : out) {
            seen = seen || name == token;
        }
        if (!number && !seen) {
            out.push_back(token);
        }
    }
    return out;
}

std::optional<double> evaluate_expression(std::string_view expression, const CounterLookup& lookup) {
    return Evaluator(expression, lookup).run();
}

std::vector<std::string> expand_derived(CounterRequest& request) {
    std::vector<std::string> derived;
    for (auto& line : request) {
        std::vector<std::string> expanded;
        for (std::string& name : line) {
            const DerivedDef* def = find_derived(name);
            if (def == nullptr) {
                expanded.push_back(std::move(name));
                continue;
            }
            for (std::string& input : expression_inputs(def->expression)) {
                expanded.push_back(std::move(input));
            }
            bool seen = false;
            for (const std::string& d : derived) {
                seen = seen || d == def->name;
            }
            if (!seen) {
                derived.emplace_back(def->name);
            }
        }
        line = std::move(expanded);
    }
    return derived;
}

std::string derived_text(const std::vector<std::string>& names) {
    std::string out;
    for (const std::string& name : names) {
        if (const DerivedDef* def = find_derived(name); def != nullptr) {
            out += (out.empty() ? "" : "; ") + name + " = " + std::string(def->expression);
        }
    }
    return out;
}

} // namespace rs::counters

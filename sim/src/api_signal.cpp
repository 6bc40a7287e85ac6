// SPDX-License-Identifier: MIT
// Signal entry points (HSA 1.2 §2.3) and the AMD signal extensions.
#include "api.h"
#include "clock.h"
#include "runtime.h"
#include "sim_signal.h"

#include <algorithm>
#include <new>

namespace sim::api {

namespace {

Signal* checked(hsa_signal_t s) {
    return Signal::from(s);
}

template <typename Op>
int64_t modify(hsa_signal_t s, Op op) {
    Signal* sig = checked(s);
    return sig ? sig->modify(op) : 0;
}

} // namespace

hsa_status_t hsa_signal_create(hsa_signal_value_t initial_value, uint32_t, const hsa_agent_t*,
                               hsa_signal_t* signal) {
    SIM_REQUIRE_INIT();
    if (!signal) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    if (Runtime::instance().config().next_signal_create_fails()) {
        return HSA_STATUS_ERROR_OUT_OF_RESOURCES; // HSA_SIM_FAIL_SIGNAL_CREATE
    }
    auto* s = new (std::nothrow) Signal();
    if (!s) {
        return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    }
    s->value.store(initial_value);
    *signal = s->handle();
    return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_signal_create(hsa_signal_value_t initial_value, uint32_t num_consumers,
                                   const hsa_agent_t* consumers, uint64_t, hsa_signal_t* signal) {
    return api::hsa_signal_create(initial_value, num_consumers, consumers, signal);
}

hsa_status_t hsa_signal_destroy(hsa_signal_t signal) {
    SIM_REQUIRE_INIT();
    Signal* s = checked(signal);
    if (!s || s->doorbell_of) {
        return HSA_STATUS_ERROR_INVALID_SIGNAL;
    }
    s->destroy();
    return HSA_STATUS_SUCCESS;
}

hsa_signal_value_t hsa_signal_load_relaxed(hsa_signal_t s) {
    Signal* sig = checked(s);
    return sig ? sig->value.load(std::memory_order_relaxed) : 0;
}
hsa_signal_value_t hsa_signal_load_scacquire(hsa_signal_t s) {
    Signal* sig = checked(s);
    return sig ? sig->value.load(std::memory_order_acquire) : 0;
}

void hsa_signal_store_relaxed(hsa_signal_t s, hsa_signal_value_t v) {
    modify(s, [v](auto& a) {
        a.store(v, std::memory_order_seq_cst);
        return v;
    });
}
void hsa_signal_store_screlease(hsa_signal_t s, hsa_signal_value_t v) {
    api::hsa_signal_store_relaxed(s, v);
}
void hsa_signal_silent_store_relaxed(hsa_signal_t s, hsa_signal_value_t v) {
    // A silent store changes the value without waking waiters (HSA 1.2 §2.3.1.4).
    if (Signal* sig = checked(s)) {
        sig->value.store(v, std::memory_order_seq_cst);
    }
}
void hsa_signal_silent_store_screlease(hsa_signal_t s, hsa_signal_value_t v) {
    api::hsa_signal_silent_store_relaxed(s, v);
}

#define SIM_SIGNAL_RMW(op, expr)                                                                             \
    void hsa_signal_##op##_relaxed(hsa_signal_t s, hsa_signal_value_t v) {                                   \
        modify(s, [v](auto& a) { return expr; });                                                            \
    }                                                                                                        \
    void hsa_signal_##op##_scacquire(hsa_signal_t s, hsa_signal_value_t v) {                                 \
        api::hsa_signal_##op##_relaxed(s, v);                                                                \
    }                                                                                                        \
    void hsa_signal_##op##_screlease(hsa_signal_t s, hsa_signal_value_t v) {                                 \
        api::hsa_signal_##op##_relaxed(s, v);                                                                \
    }                                                                                                        \
    void hsa_signal_##op##_scacq_screl(hsa_signal_t s, hsa_signal_value_t v) {                               \
        api::hsa_signal_##op##_relaxed(s, v);                                                                \
    }

SIM_SIGNAL_RMW(and, a.fetch_and(v) & v)
SIM_SIGNAL_RMW(or, a.fetch_or(v) | v)
SIM_SIGNAL_RMW(xor, a.fetch_xor(v) ^ v)
SIM_SIGNAL_RMW(add, a.fetch_add(v) + v)
SIM_SIGNAL_RMW(subtract, a.fetch_sub(v) - v)
#undef SIM_SIGNAL_RMW

hsa_signal_value_t hsa_signal_exchange_relaxed(hsa_signal_t s, hsa_signal_value_t v) {
    Signal* sig = checked(s);
    if (!sig) {
        return 0;
    }
    int64_t old = 0;
    sig->modify([&](auto& a) {
        old = a.exchange(v);
        return v;
    });
    return old;
}
hsa_signal_value_t hsa_signal_exchange_scacquire(hsa_signal_t s, hsa_signal_value_t v) {
    return api::hsa_signal_exchange_relaxed(s, v);
}
hsa_signal_value_t hsa_signal_exchange_screlease(hsa_signal_t s, hsa_signal_value_t v) {
    return api::hsa_signal_exchange_relaxed(s, v);
}
hsa_signal_value_t hsa_signal_exchange_scacq_screl(hsa_signal_t s, hsa_signal_value_t v) {
    return api::hsa_signal_exchange_relaxed(s, v);
}

hsa_signal_value_t hsa_signal_cas_relaxed(hsa_signal_t s, hsa_signal_value_t expected, hsa_signal_value_t v) {
    Signal* sig = checked(s);
    if (!sig) {
        return 0;
    }
    int64_t observed = expected;
    sig->modify([&](auto& a) { return a.compare_exchange_strong(observed, v) ? v : observed; });
    return observed;
}
hsa_signal_value_t hsa_signal_cas_scacquire(hsa_signal_t s, hsa_signal_value_t e, hsa_signal_value_t v) {
    return api::hsa_signal_cas_relaxed(s, e, v);
}
hsa_signal_value_t hsa_signal_cas_screlease(hsa_signal_t s, hsa_signal_value_t e, hsa_signal_value_t v) {
    return api::hsa_signal_cas_relaxed(s, e, v);
}
hsa_signal_value_t hsa_signal_cas_scacq_screl(hsa_signal_t s, hsa_signal_value_t e, hsa_signal_value_t v) {
    return api::hsa_signal_cas_relaxed(s, e, v);
}

hsa_signal_value_t hsa_signal_wait_scacquire(hsa_signal_t s, hsa_signal_condition_t condition,
                                             hsa_signal_value_t compare_value, uint64_t timeout_hint,
                                             hsa_wait_state_t) {
    Signal* sig = checked(s);
    if (!sig) {
        return 0;
    }
    // timeout_hint is in HSA system timestamp ticks, which are ns here.
    return sig->wait(condition, compare_value, timeout_hint);
}
hsa_signal_value_t hsa_signal_wait_relaxed(hsa_signal_t s, hsa_signal_condition_t c, hsa_signal_value_t v,
                                           uint64_t t, hsa_wait_state_t w) {
    return api::hsa_signal_wait_scacquire(s, c, v, t, w);
}

uint32_t hsa_amd_signal_wait_any(uint32_t signal_count, hsa_signal_t* signals, hsa_signal_condition_t* conds,
                                 hsa_signal_value_t* values, uint64_t timeout_hint, hsa_wait_state_t,
                                 hsa_signal_value_t* satisfying_value) {
    if (!signals || !conds || !values) {
        return UINT32_MAX;
    }
    const uint64_t deadline = timeout_hint == UINT64_MAX ? UINT64_MAX : now_ns() + timeout_hint;
    auto& monitor = SignalMonitor::instance();
    for (;;) {
        uint64_t epoch = monitor.epoch();
        bool poll = false; // a signal whose value pointer was handed out changes without an epoch bump
        for (uint32_t i = 0; i < signal_count; ++i) {
            Signal* sig = checked(signals[i]);
            if (!sig) {
                continue;
            }
            poll = poll || sig->value_exposed.load(std::memory_order_acquire);
            int64_t v = sig->value.load(std::memory_order_acquire);
            if (Signal::satisfied(conds[i], v, values[i])) {
                if (satisfying_value) {
                    *satisfying_value = v;
                }
                return i;
            }
        }
        const uint64_t now = now_ns();
        if (now >= deadline) {
            return UINT32_MAX;
        }
        monitor.wait_for_change(epoch,
                                poll ? std::min(deadline, now + Signal::kValuePointerPollNs) : deadline);
    }
}

hsa_status_t hsa_amd_signal_value_pointer(hsa_signal_t signal, volatile hsa_signal_value_t** value_ptr) {
    SIM_REQUIRE_INIT();
    Signal* sig = checked(signal);
    if (!sig) {
        return HSA_STATUS_ERROR_INVALID_SIGNAL;
    }
    if (!value_ptr) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    static_assert(sizeof(std::atomic<int64_t>) == sizeof(hsa_signal_value_t) &&
                      std::atomic<int64_t>::is_always_lock_free,
                  "the signal value must be a plain 64-bit word to hand out its address");
    // From now on waits on this signal poll: a store through the pointer does not wake anybody.
    sig->value_exposed.store(true, std::memory_order_release);
    *value_ptr = reinterpret_cast<volatile hsa_signal_value_t*>(&sig->value);
    return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_signal_async_handler(hsa_signal_t signal, hsa_signal_condition_t cond,
                                          hsa_signal_value_t value, hsa_amd_signal_handler handler,
                                          void* arg) {
    SIM_REQUIRE_INIT();
    Signal* sig = checked(signal);
    if (!sig) {
        return HSA_STATUS_ERROR_INVALID_SIGNAL;
    }
    if (!handler) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    SignalMonitor::instance().add_handler(sig, cond, value, handler, arg);
    return HSA_STATUS_SUCCESS;
}

} // namespace sim::api

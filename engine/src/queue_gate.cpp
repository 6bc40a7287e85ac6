// SPDX-License-Identifier: MIT
#include "queue_gate.h"

#include "agent_context.h"

namespace rs::engine {

bool QueueGates::has_gate_of(const Window* window) const {
    for (const GateRecord& g : gates) {
        if (g.window.get() == window && !g.hold) {
            return true;
        }
    }
    return false;
}

void QueueGates::add_gate(const std::shared_ptr<Window>& window) noexcept {
    gates.push_back({window, counted, false});
    ++window->gates;
    ++counted;
    hsa().core.hsa_signal_add_scacq_screl_fn(in_flight, 1);
}

std::shared_ptr<Window> QueueGates::last_unreleased() const {
    for (auto it = gates.rbegin(); it != gates.rend(); ++it) {
        if (!it->window->released) {
            return it->window;
        }
    }
    return nullptr;
}

void QueueGates::add_hold(const std::shared_ptr<Window>& window) noexcept {
    gates.push_back({window, counted, true});
}

void QueueGates::add_writes(uint64_t n) noexcept {
    counted += n;
    hsa().core.hsa_signal_add_scacq_screl_fn(in_flight, static_cast<hsa_signal_value_t>(n));
}

bool QueueGates::drained(const AgentContext* drainer) const {
    const auto v = static_cast<uint64_t>(hsa().core.hsa_signal_load_scacquire_fn(in_flight));
    uint64_t allowed = 0;
    for (const GateRecord& g : gates) {
        if (g.hold && g.window->owner != drainer) {
            continue; // released by another worker, perhaps while the drain's window is open
        }
        if (!g.window->released) {
            // The gate itself (a hold: the barrier it stands for) and everything counted after it cannot
            // have launched.
            allowed = counted - g.position;
            break;
        }
    }
    return v <= allowed;
}

namespace {

void forget(GateRecord& g, std::vector<hsa_signal_t>& unreferenced) {
    if (g.hold) {
        return; // a hold references no signal of its window (and its window may be another agent's)
    }
    Window& w = *g.window;
    if (--w.gates == 0 && w.released && !w.retain_until_unload && w.release.handle != 0) {
        unreferenced.push_back(w.release);
        w.release.handle = 0;
    }
}

} // namespace

void QueueGates::prune(std::vector<hsa_signal_t>& unreferenced) {
    if (gates.empty()) {
        return;
    }
    const auto v = static_cast<uint64_t>(hsa().core.hsa_signal_load_scacquire_fn(in_flight));
    const uint64_t completed = v <= counted ? counted - v : 0;
    size_t done = 0;
    while (done < gates.size() && gates[done].position < completed) {
        forget(gates[done++], unreferenced);
    }
    gates.erase(gates.begin(), gates.begin() + static_cast<std::ptrdiff_t>(done));
}

void QueueGates::drop_all(std::vector<hsa_signal_t>& unreferenced) {
    for (GateRecord& g : gates) {
        forget(g, unreferenced);
    }
    gates.clear();
}

hsa_barrier_and_packet_t make_gate(hsa_signal_t release, hsa_signal_t in_flight) {
    return make_barrier_and(release, in_flight);
}

} // namespace rs::engine

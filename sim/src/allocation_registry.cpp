// SPDX-License-Identifier: MIT
#include "allocation_registry.h"

#include <mutex>

namespace sim {

void AllocationRegistry::insert(const Allocation& a) {
    std::unique_lock lock(mutex_);
    Allocation& stored = by_base_[a.base];
    stored = a;
    stored.serial = next_serial_++;
}

std::optional<Allocation> AllocationRegistry::erase(uintptr_t base) {
    std::unique_lock lock(mutex_);
    auto it = by_base_.find(base);
    if (it == by_base_.end()) {
        return std::nullopt;
    }
    Allocation a = std::move(it->second);
    by_base_.erase(it);
    return a;
}

const Allocation* AllocationRegistry::locate(uintptr_t p) const {
    auto it = by_base_.upper_bound(p);
    if (it == by_base_.begin()) {
        return nullptr;
    }
    --it;
    const Allocation& a = it->second;
    size_t extent = a.size == 0 ? 1 : a.size;
    return (p >= a.base && p - a.base < extent) ? &a : nullptr;
}

Allocation* AllocationRegistry::locate(uintptr_t p) {
    return const_cast<Allocation*>(static_cast<const AllocationRegistry*>(this)->locate(p));
}

std::optional<Allocation> AllocationRegistry::find(const void* ptr) const {
    std::shared_lock lock(mutex_);
    const Allocation* a = locate(reinterpret_cast<uintptr_t>(ptr));
    if (!a) {
        return std::nullopt;
    }
    return *a;
}

std::vector<Allocation> AllocationRegistry::drain() {
    std::unique_lock lock(mutex_);
    std::vector<Allocation> out;
    out.reserve(by_base_.size());
    for (auto& [base, a] : by_base_) {
        out.push_back(std::move(a));
    }
    by_base_.clear();
    return out;
}

} // namespace sim

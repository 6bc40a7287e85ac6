// SPDX-License-Identifier: MIT
#include "model/KernelName.h"

#include <replayscope/session/kernel_name.h>

#include <atomic>

namespace rs::app {

namespace {
std::atomic<KernelNameStyle> g_style{KernelNameStyle::demangled};

rs::session::KernelNameStyle sessionStyle(KernelNameStyle style) {
    switch (style) {
    case KernelNameStyle::mangled:
        return rs::session::KernelNameStyle::mangled;
    case KernelNameStyle::truncated:
        return rs::session::KernelNameStyle::truncated;
    case KernelNameStyle::demangled:
        break;
    }
    return rs::session::KernelNameStyle::demangled;
}
} // namespace

void setKernelNameStyle(KernelNameStyle style) {
    g_style.store(style, std::memory_order_relaxed);
}

KernelNameStyle kernelNameStyle() {
    return g_style.load(std::memory_order_relaxed);
}

QString truncatedKernelName(const QString& demangled) {
    return QString::fromStdString(rs::session::truncated_kernel_name(demangled.toStdString()));
}

QString kernelDisplayName(const QString& symbol, KernelNameStyle style) {
    return QString::fromStdString(
        rs::session::kernel_display_name(symbol.toStdString(), sessionStyle(style)));
}

} // namespace rs::app

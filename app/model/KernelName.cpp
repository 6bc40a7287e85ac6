// SPDX-License-Identifier: MIT
#include "model/KernelName.h"

#include <QByteArray>

#include <atomic>
#include <cstdlib>
#include <cxxabi.h>

namespace rs::app {

namespace {
std::atomic<KernelNameStyle> g_style{KernelNameStyle::demangled};

/// Position of the '(' that opens the argument list ending `name` (the last top-level parenthesis group
/// that reaches the end, const/volatile/ref qualifiers after it allowed), or -1.
qsizetype argumentListStart(const QString& name) {
    int depth = 0;
    qsizetype open = -1;
    for (qsizetype i = 0; i < name.size(); ++i) {
        const QChar c = name[i];
        if (c == QLatin1Char('(') || c == QLatin1Char('<') || c == QLatin1Char('[')) {
            if (depth == 0 && c == QLatin1Char('(')) {
                // "(anonymous namespace)" is a scope, not an argument list.
                if (!name.mid(i).startsWith(QLatin1String("(anonymous namespace)"))) {
                    open = i;
                }
            }
            ++depth;
        } else if (c == QLatin1Char(')') || c == QLatin1Char('>') || c == QLatin1Char(']')) {
            depth = depth > 0 ? depth - 1 : 0;
        }
    }
    return open;
}

/// `name` without a template argument list at its end ("f<int, g<2>>" -> "f").
QString withoutTrailingTemplate(QString name) {
    if (!name.endsWith(QLatin1Char('>')) || name.endsWith(QLatin1String("operator>")) ||
        name.endsWith(QLatin1String("operator>>"))) {
        return name;
    }
    int depth = 0;
    for (qsizetype i = name.size() - 1; i >= 0; --i) {
        if (name[i] == QLatin1Char('>')) {
            ++depth;
        } else if (name[i] == QLatin1Char('<') && --depth == 0) {
            return name.left(i);
        }
    }
    return name;
}

/// The last top-level "::" component, after any top-level space (a return type before the name).
QString lastComponent(const QString& name) {
    int depth = 0;
    qsizetype start = 0;
    for (qsizetype i = 0; i < name.size(); ++i) {
        const QChar c = name[i];
        if (c == QLatin1Char('(') || c == QLatin1Char('<') || c == QLatin1Char('[')) {
            ++depth;
        } else if (c == QLatin1Char(')') || c == QLatin1Char('>') || c == QLatin1Char(']')) {
            depth = depth > 0 ? depth - 1 : 0;
        } else if (depth == 0 && c == QLatin1Char(' ') &&
                   !name.mid(start, i - start).startsWith(QLatin1String("operator"))) {
            start = i + 1;
        } else if (depth == 0 && c == QLatin1Char(':') && i + 1 < name.size() &&
                   name[i + 1] == QLatin1Char(':')) {
            start = i + 2;
            ++i;
        }
    }
    return name.mid(start);
}

} // namespace

void setKernelNameStyle(KernelNameStyle style) {
    g_style.store(style, std::memory_order_relaxed);
}

KernelNameStyle kernelNameStyle() {
    return g_style.load(std::memory_order_relaxed);
}

QString truncatedKernelName(const QString& demangled) {
    QString name = demangled;
    if (const qsizetype open = argumentListStart(name); open > 0) {
        name = name.left(open);
    }
    name = lastComponent(withoutTrailingTemplate(name.trimmed()));
    return name.isEmpty() ? demangled : name;
}

QString kernelDisplayName(const QString& symbol, KernelNameStyle style) {
    const QString name = symbol.endsWith(QLatin1String(".kd")) ? symbol.chopped(3) : symbol;
    if (style == KernelNameStyle::mangled || !name.startsWith(QLatin1String("_Z"))) {
        return name;
    }
    int status = -1;
    char* text = abi::__cxa_demangle(name.toUtf8().constData(), nullptr, nullptr, &status);
    const QString demangled = status == 0 && text != nullptr ? QString::fromUtf8(text) : name;
    std::free(text);
    return style == KernelNameStyle::truncated && status == 0 ? truncatedKernelName(demangled) : demangled;
}

} // namespace rs::app

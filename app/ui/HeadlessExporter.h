// SPDX-License-Identifier: MIT
// Headless commands: `--export-charts SESSION DIR` (every chart as PNG) and `--screenshots SESSION [OTHER...]
// DIR` (each page of the main window as PNG). Need a QApplication (offscreen platform is fine).
#pragma once

#include <QString>
#include <QStringList>

namespace rs::app {

class HeadlessExporter {
  public:
    /// The kernels whose hardware counters exportCharts charts: those with the most dispatches counted.
    static constexpr int kCounterChartKernels = 4;
    /// The most counter charts exportCharts writes (kernels by dispatches counted, counters by name).
    static constexpr int kMaxCounterCharts = 16;

    /// Loads `session` and writes its charts to `dir`: the charts page's, the audit's, then per kernel and
    /// hardware counter its value per dispatch (N-counter-KERNEL-COUNTER.png, the kCounterChartKernels
    /// kernels with the most dispatches counted, at most kMaxCounterCharts); false with `error` set when the
    /// file is refused.
    static bool exportCharts(const QString& session, const QString& dir, QStringList& written,
                             QString& error);
    /// Opens `session` in a main window and grabs the start page and every page to `dir` (PNG files, their
    /// paths appended to `written`; counters.png only for a session with hardware counters, its chart showing
    /// the first row whose values differ between dispatches). With `others`: `others[0]` is compared with
    /// `session` (compare.png, File > Compare with...), and two or more files after it open as one job
    /// (job.png, the merged view). False with `error` set when a file is refused.
    static bool screenshots(const QString& session, const QString& dir, QStringList& written, QString& error,
                            const QStringList& others = {});
};

} // namespace rs::app

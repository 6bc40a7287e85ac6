// SPDX-License-Identifier: MIT
// Reads a job's session files on a thread of its own, as SessionReader does for one file, so that the GUI
// thread stays responsive: the summary of every rank (JobSummary::load) and, apart, the rows of the ranks
// a user selects (MergedSession::load).
#pragma once

#include "model/JobSummary.h"
#include "model/MergedSession.h"
#include "model/SessionError.h"

#include <QObject>
#include <QStringList>
#include <QThread>

namespace rs::app {

class JobReader : public QObject {
    Q_OBJECT
  public:
    explicit JobReader(QObject* parent = nullptr);
    /// Ends the thread after the read under way (if any) has finished; its result is dropped.
    ~JobReader() override;
    /// Starts reading the summary of `paths`; emits summaryLoaded() or failed() on this object's thread.
    void loadSummary(const QStringList& paths);
    /// Starts reading and merging every row of `paths`; emits rowsLoaded() with the number this call
    /// returns, or failed(). Reads run in the order started; each one is delivered.
    int loadRows(const QStringList& paths);
    bool loading() const { return pending_ > 0; }

  signals:
    void summaryLoaded(const rs::app::JobSummary& job);
    void rowsLoaded(const rs::app::MergedSession& rows, int request);
    void failed(const rs::app::SessionError& error);

  private:
    QThread thread_;
    QObject* worker_; ///< lives on thread_, deleted when it ends
    int pending_ = 0; ///< reads started and not delivered (GUI thread only)
    int requests_ = 0;
};

} // namespace rs::app

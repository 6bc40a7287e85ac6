// SPDX-License-Identifier: MIT
// Loads the session files of one job (MergedSession::load) on a thread of its own, as SessionReader does
// for one file: the GUI thread stays responsive while the files are read and merged.
#pragma once

#include "model/MergedSession.h"
#include "model/SessionError.h"

#include <QObject>
#include <QStringList>
#include <QThread>

namespace rs::app {

class MergedSessionReader : public QObject {
    Q_OBJECT
  public:
    explicit MergedSessionReader(QObject* parent = nullptr);
    /// Ends the thread after the load under way (if any) has finished; its result is dropped.
    ~MergedSessionReader() override;
    /// Starts loading `paths` on the reader's thread; emits loaded() or failed() on this object's thread.
    /// A load started before is still finished, and its result delivered, first.
    void load(const QStringList& paths);
    bool loading() const { return pending_ > 0; }

  signals:
    void loaded(const rs::app::MergedSession& merged);
    void failed(const rs::app::SessionError& error);

  private:
    QThread thread_;
    QObject* worker_; ///< lives on thread_, deleted when it ends
    int pending_ = 0; ///< loads started and not delivered (GUI thread only)
};

} // namespace rs::app

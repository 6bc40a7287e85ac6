// SPDX-License-Identifier: MIT
// Summary of a session: command line, exit status, session status, per-process totals, per-agent
// table, warnings.
#pragma once

#include "model/SessionSnapshot.h"

#include <QWidget>

#include <optional>

class QLabel;

namespace rs::app {

class AgentSummaryModel;
class ProcessTableModel;
class WarningTableModel;
class TablePanel;

class SummaryPage : public QWidget {
    Q_OBJECT
  public:
    explicit SummaryPage(QWidget* parent = nullptr);
    void setSnapshot(const SessionSnapshot& snapshot);
    /// Exit status of the target when it was launched from this inspector (the file does not record it).
    void setExitStatus(int status);
    TablePanel* agentsPanel() const { return agents_panel_; }
    TablePanel* warningsPanel() const { return warnings_panel_; }
    TablePanel* processesPanel() const { return processes_panel_; }

  protected:
    /// On QEvent::PaletteChange the status line is written again in the new palette's colours.
    void changeEvent(QEvent* event) override;

  private:
    void refresh();

    SessionSnapshot snapshot_;
    bool fittedEnded_ = false; ///< the columns were fitted to a snapshot of the ended session
    std::optional<int> exit_status_;
    QLabel* command_;
    QLabel* exit_;
    QLabel* status_;
    QLabel* host_;
    QLabel* totals_;
    QLabel* config_;
    ProcessTableModel* processes_;
    AgentSummaryModel* agents_;
    WarningTableModel* warnings_;
    TablePanel* processes_panel_;
    TablePanel* agents_panel_;
    TablePanel* warnings_panel_;
};

} // namespace rs::app

// SPDX-License-Identifier: MIT
// Launch dialog: program, arguments, working directory, environment and replay settings (with the
// stand-in libraries a HIP program needs on the simulated runtime, prefilled from
// `lib<program>-standins.so` beside the program when that exists); runs
// replayscope-run (next to this binary) as a child process, shows its output, Stop ends the target
// cleanly (SIGTERM to replayscope-run, which forwards it).
#pragma once

#include "model/RunCommand.h"

#include <QDialog>
#include <QProcess>

class QComboBox;

class QCheckBox;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;

namespace rs::app {

class LaunchDialog : public QDialog {
    Q_OBJECT
  public:
    explicit LaunchDialog(QWidget* parent = nullptr);
    ~LaunchDialog() override;

    RunCommand::Options options() const;
    void setOptions(const RunCommand::Options& options);
    /// Starts the run (as the Run button does). False when it cannot start (message in the log).
    bool start();
    /// Ends the target cleanly (as the Stop button does).
    void stop();
    bool isRunning() const;
    QString log() const;
    /// replayscope-run to start (default: next to this program).
    void setRunnerPath(const QString& path) {
        runner_ = path;
        updateCommand();
    }
    /// The command line Run starts, shown under the fields (RunCommand::commandLine).
    QString commandLine() const;

  signals:
    /// The run started and will write `path`.
    void sessionStarted(const QString& path);
    /// replayscope-run ended with `exitStatus` (the program's status, 128+signal, 125 on its own failure).
    void runFinished(const QString& path, int exitStatus);

  private:
    void append(const QString& text);
    void updateButtons();
    /// Refreshes the command line shown from the fields.
    void updateCommand();
    /// Fills the empty Stand-ins field with the program's `lib<name>-standins.so` when it exists.
    void prefillStandins();

    QString runner_;
    QProcess process_;
    QString output_path_;
    QLineEdit* program_;
    QLineEdit* arguments_;
    QLineEdit* directory_;
    QPlainTextEdit* environment_;
    QSpinBox* passes_;
    QLineEdit* include_;
    QLineEdit* exclude_;
    QLineEdit* iterations_;
    QSpinBox* skip_;
    QSpinBox* count_;
    QLineEdit* agents_;
    QLineEdit* budget_;
    QCheckBox* fidelity_;
    QComboBox* store_;
    QLineEdit* reserve_;
    QComboBox* restore_;
    QLineEdit* chunk_;
    QCheckBox* simulate_;
    QSpinBox* gpus_;     ///< simulated GPU agents, with simulate_
    QLineEdit* command_; ///< the command Run starts, kept current
    QLineEdit* standins_;
    QWidget* standinsRow_;
    QLineEdit* output_;
    QPlainTextEdit* log_;
    QPushButton* run_;
    QPushButton* stop_;
};

} // namespace rs::app

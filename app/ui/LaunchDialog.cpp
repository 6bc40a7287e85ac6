// SPDX-License-Identifier: MIT
#include "ui/LaunchDialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProcessEnvironment>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace rs::app {

namespace {
QWidget* withBrowse(QLineEdit* edit, QWidget* parent, bool directory) {
    auto* w = new QWidget(parent);
    auto* l = new QHBoxLayout(w);
    l->setContentsMargins(0, 0, 0, 0);
    l->addWidget(edit, 1);
    auto* b = new QToolButton(w);
    b->setText(QStringLiteral("…"));
    QObject::connect(b, &QToolButton::clicked, w, [edit, w, directory] {
        const QString path = directory ? QFileDialog::getExistingDirectory(w, QString(), edit->text())
                                       : QFileDialog::getOpenFileName(w, QString(), edit->text());
        if (!path.isEmpty()) {
            edit->setText(path);
        }
    });
    l->addWidget(b);
    // As tall as the line edit: a form row does not stretch it when the dialog is taller than its rows.
    w->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    return w;
}

// Line edit with a button that picks one or more shared libraries, appended comma-separated.
QWidget* withLibraryBrowse(QLineEdit* edit, QWidget* parent) {
    auto* w = new QWidget(parent);
    auto* l = new QHBoxLayout(w);
    l->setContentsMargins(0, 0, 0, 0);
    l->addWidget(edit, 1);
    auto* b = new QToolButton(w);
    b->setText(QStringLiteral("…"));
    QObject::connect(b, &QToolButton::clicked, w, [edit, w] {
        const QStringList paths =
            QFileDialog::getOpenFileNames(w, QObject::tr("Stand-in libraries"), QString(),
                                          QObject::tr("Shared libraries (*.so);;All files (*)"));
        if (!paths.isEmpty()) {
            const QString current = edit->text().trimmed();
            edit->setText(current.isEmpty() ? paths.join(QLatin1Char(','))
                                            : current + QLatin1Char(',') + paths.join(QLatin1Char(',')));
        }
    });
    l->addWidget(b);
    // As tall as the line edit: a form row does not stretch it when the dialog is taller than its rows.
    w->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    return w;
}
} // namespace

LaunchDialog::LaunchDialog(QWidget* parent) : QDialog(parent), runner_(RunCommand::runnerPath()) {
    setWindowTitle(tr("Launch under ReplayScope"));
    auto* layout = new QVBoxLayout(this);
    auto* split = new QSplitter(Qt::Vertical, this);
    auto* top = new QWidget(split);
    auto* columns = new QHBoxLayout(top);
    columns->setContentsMargins(0, 0, 0, 0);

    auto* target = new QGroupBox(tr("Target"), top);
    auto* tf = new QFormLayout(target);
    program_ = new QLineEdit(target);
    program_->setObjectName(QStringLiteral("program"));
    program_->setPlaceholderText(tr("program to run"));
    arguments_ = new QLineEdit(target);
    arguments_->setObjectName(QStringLiteral("arguments"));
    directory_ = new QLineEdit(QDir::currentPath(), target);
    environment_ = new QPlainTextEdit(target);
    environment_->setPlaceholderText(tr("KEY=value, one per line"));
    environment_->setMaximumHeight(70);
    output_ = new QLineEdit(target);
    output_->setObjectName(QStringLiteral("output"));
    output_->setText(
        QDir(QDir::currentPath())
            .filePath(QStringLiteral("session-%1.rsdb")
                          .arg(QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-hhmmss")))));
    tf->addRow(tr("Program:"), withBrowse(program_, target, false));
    tf->addRow(tr("Arguments:"), arguments_);
    tf->addRow(tr("Working directory:"), withBrowse(directory_, target, true));
    tf->addRow(tr("Extra environment:"), environment_);
    tf->addRow(tr("Session file:"), output_);
    columns->addWidget(target, 3);

    auto* replay = new QGroupBox(tr("Replay"), top);
    auto* rf = new QFormLayout(replay);
    passes_ = new QSpinBox(replay);
    passes_->setRange(1, 1000);
    passes_->setValue(2);
    passes_->setObjectName(QStringLiteral("passes"));
    include_ = new QLineEdit(replay);
    include_->setPlaceholderText(tr("ECMAScript regex; empty: all kernels"));
    exclude_ = new QLineEdit(replay);
    iterations_ = new QLineEdit(replay);
    iterations_->setObjectName(QStringLiteral("kernelIterations"));
    iterations_->setPlaceholderText(tr("rocprofv3 ranges, e.g. [1-3],[5]; empty: all"));
    iterations_->setToolTip(tr("Replay only these dispatches of each kernel, counted from 1 per kernel "
                               "(--kernel-iteration-range); the others run once, declined iteration-range"));
    skip_ = new QSpinBox(replay);
    skip_->setRange(0, 1'000'000'000);
    count_ = new QSpinBox(replay);
    count_->setRange(0, 1'000'000'000);
    count_->setSpecialValueText(tr("no limit"));
    agents_ = new QLineEdit(replay);
    agents_->setPlaceholderText(tr("indices or names, comma-separated; empty: all"));
    budget_ = new QLineEdit(replay);
    budget_->setPlaceholderText(tr("e.g. 4G; empty: no budget"));
    fidelity_ = new QCheckBox(tr("Hash outputs after each pass (fidelity check)"), replay);
    store_ = new QComboBox(replay);
    store_->setObjectName(QStringLiteral("snapshotStore"));
    store_->addItems({QStringLiteral("auto"), QStringLiteral("host"), QStringLiteral("device")});
    store_->setToolTip(tr("Where snapshots are kept: auto (device store while it fits, else the page-locked "
                          "host store), host, or device"));
    reserve_ = new QLineEdit(replay);
    reserve_->setPlaceholderText(tr("device memory left to the application, e.g. 2G; empty: 1 GiB"));
    restore_ = new QComboBox(replay);
    restore_->setObjectName(QStringLiteral("restoreMode"));
    restore_->addItems({QStringLiteral("dirty"), QStringLiteral("full"), QStringLiteral("dirty-host")});
    restore_->setToolTip(
        tr("dirty: copy back only the chunks whose hash changed (hashed on the device); "
           "full: every region; dirty-host: hash on the host after reading the device back"));
    chunk_ = new QLineEdit(replay);
    chunk_->setPlaceholderText(tr("power of two, 4K to 1G; empty: 64K"));
    simulate_ = new QCheckBox(tr("Run on the simulated HSA runtime"), replay);
    simulate_->setObjectName(QStringLiteral("simulate"));
    gpus_ = new QSpinBox(replay);
    gpus_->setObjectName(QStringLiteral("simulatedGpus"));
    gpus_->setRange(1, 16);
    gpus_->setValue(2); // as packaging/demo.sh runs the demo
    gpus_->setToolTip(tr("Simulated GPU agents (HSA_SIM_GPU_AGENTS); the demo script runs two"));
    standins_ = new QLineEdit(replay);
    standins_->setObjectName(QStringLiteral("standins"));
    standins_->setPlaceholderText(tr("lib<program>-standins.so, comma-separated; for HIP programs"));
    standins_->setToolTip(tr("Host stand-ins of the program's HIP kernels (made by replayscope-standins), "
                             "passed as --standins; used with the simulated runtime only"));
    standinsRow_ = withLibraryBrowse(standins_, replay);
    rf->addRow(tr("Passes:"), passes_);
    rf->addRow(tr("Kernel include:"), include_);
    rf->addRow(tr("Kernel exclude:"), exclude_);
    rf->addRow(tr("Kernel iterations:"), iterations_);
    rf->addRow(tr("Skip dispatches:"), skip_);
    rf->addRow(tr("Replay at most:"), count_);
    rf->addRow(tr("Agents:"), agents_);
    rf->addRow(tr("Host-memory budget:"), budget_);
    rf->addRow(QString(), fidelity_);
    rf->addRow(tr("Snapshot store:"), store_);
    rf->addRow(tr("Device-store reserve:"), reserve_);
    rf->addRow(tr("Restore:"), restore_);
    rf->addRow(tr("Restore chunk size:"), chunk_);
    rf->addRow(QString(), simulate_);
    rf->addRow(tr("Simulated GPUs:"), gpus_);
    rf->addRow(tr("Stand-ins:"), standinsRow_);
    standinsRow_->setEnabled(false);
    connect(simulate_, &QCheckBox::toggled, standinsRow_, &QWidget::setEnabled);
    connect(simulate_, &QCheckBox::toggled, gpus_, &QWidget::setEnabled);
    connect(program_, &QLineEdit::textChanged, this, &LaunchDialog::prefillStandins);
    connect(directory_, &QLineEdit::textChanged, this, &LaunchDialog::prefillStandins);
    columns->addWidget(replay, 2);

    log_ = new QPlainTextEdit(split);
    log_->setObjectName(QStringLiteral("log"));
    log_->setReadOnly(true);
    log_->setPlaceholderText(tr("Output of replayscope-run and the target appears here."));
    log_->setStyleSheet(QStringLiteral("font-family: monospace;"));
    log_->setMaximumBlockCount(20000);
    split->addWidget(top);
    split->addWidget(log_);
    layout->addWidget(split, 1);
    // The command Run will start, kept current as the fields change: read it before running, copy it to a
    // terminal or a batch script.
    command_ = new QLineEdit(this);
    command_->setObjectName(QStringLiteral("commandLine"));
    command_->setReadOnly(true);
    command_->setToolTip(tr("The command Run starts (select and copy it to run it elsewhere)"));
    auto* commandRow = new QHBoxLayout;
    commandRow->addWidget(new QLabel(tr("Command:"), this));
    commandRow->addWidget(command_, 1);
    layout->addLayout(commandRow);

    auto* buttons = new QDialogButtonBox(this);
    run_ = buttons->addButton(tr("Run"), QDialogButtonBox::AcceptRole);
    run_->setObjectName(QStringLiteral("run"));
    stop_ = buttons->addButton(tr("Stop"), QDialogButtonBox::ActionRole);
    stop_->setObjectName(QStringLiteral("stop"));
    auto* close = buttons->addButton(QDialogButtonBox::Close);
    layout->addWidget(buttons);
    connect(run_, &QPushButton::clicked, this, &LaunchDialog::start);
    connect(stop_, &QPushButton::clicked, this, &LaunchDialog::stop);
    connect(close, &QPushButton::clicked, this, &QDialog::hide);

    process_.setProcessChannelMode(QProcess::MergedChannels);
    connect(&process_, &QProcess::readyRead, this,
            [this] { append(QString::fromLocal8Bit(process_.readAll())); });
    connect(&process_, &QProcess::finished, this, [this](int code, QProcess::ExitStatus status) {
        const int exit = status == QProcess::NormalExit ? code : 128 + 9;
        append(tr("\n[replayscope-run finished with status %1]\n").arg(exit));
        updateButtons();
        emit runFinished(output_path_, exit);
    });
    connect(&process_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart) {
            append(tr("[cannot start %1: %2]\n").arg(runner_, process_.errorString()));
            updateButtons();
        }
    });
    resize(900, 640);
    // Every field that changes the command updates its preview.
    for (QLineEdit* e : findChildren<QLineEdit*>()) {
        if (e != command_) {
            connect(e, &QLineEdit::textChanged, this, &LaunchDialog::updateCommand);
        }
    }
    for (QSpinBox* b : findChildren<QSpinBox*>()) {
        connect(b, &QSpinBox::valueChanged, this, &LaunchDialog::updateCommand);
    }
    for (QCheckBox* c : findChildren<QCheckBox*>()) {
        connect(c, &QCheckBox::toggled, this, &LaunchDialog::updateCommand);
    }
    for (QComboBox* c : findChildren<QComboBox*>()) {
        connect(c, &QComboBox::currentIndexChanged, this, &LaunchDialog::updateCommand);
    }
    connect(environment_, &QPlainTextEdit::textChanged, this, &LaunchDialog::updateCommand);
    gpus_->setEnabled(simulate_->isChecked());
    updateCommand();
    updateButtons();
}

LaunchDialog::~LaunchDialog() {
    if (process_.state() != QProcess::NotRunning) {
        process_.terminate();
        if (!process_.waitForFinished(5000)) {
            process_.kill();
            process_.waitForFinished(2000);
        }
    }
}

RunCommand::Options LaunchDialog::options() const {
    RunCommand::Options o;
    o.program = program_->text().trimmed();
    o.arguments = QProcess::splitCommand(arguments_->text());
    o.workingDirectory = directory_->text().trimmed();
    o.environment = environment_->toPlainText().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    o.passes = passes_->value();
    o.kernelInclude = include_->text();
    o.kernelExclude = exclude_->text();
    o.kernelIterationRange = iterations_->text();
    o.dispatchSkip = skip_->value();
    o.dispatchCount = count_->value();
    o.agents = agents_->text();
    o.hostMemoryBudget = budget_->text();
    o.fidelityCheck = fidelity_->isChecked();
    o.snapshotStore = store_->currentText();
    o.deviceStoreReserve = reserve_->text();
    o.restore = restore_->currentText();
    o.restoreChunkSize = chunk_->text();
    o.simulate = simulate_->isChecked();
    o.simulatedGpus = gpus_->value();
    o.standins = standins_->text().trimmed();
    o.output = output_->text().trimmed();
    return o;
}

void LaunchDialog::setOptions(const RunCommand::Options& o) {
    standins_->setText(o.standins); // before the program, whose change may prefill an empty field
    program_->setText(o.program);
    arguments_->setText(QProcess::splitCommand(o.arguments.join(QLatin1Char(' '))).join(QLatin1Char(' ')));
    if (!o.workingDirectory.isEmpty()) {
        directory_->setText(o.workingDirectory);
    }
    environment_->setPlainText(o.environment.join(QLatin1Char('\n')));
    passes_->setValue(o.passes);
    include_->setText(o.kernelInclude);
    exclude_->setText(o.kernelExclude);
    iterations_->setText(o.kernelIterationRange);
    skip_->setValue(int(o.dispatchSkip));
    count_->setValue(int(o.dispatchCount));
    agents_->setText(o.agents);
    budget_->setText(o.hostMemoryBudget);
    fidelity_->setChecked(o.fidelityCheck);
    store_->setCurrentIndex(std::max(0, store_->findText(o.snapshotStore)));
    reserve_->setText(o.deviceStoreReserve);
    restore_->setCurrentIndex(std::max(0, restore_->findText(o.restore)));
    chunk_->setText(o.restoreChunkSize);
    simulate_->setChecked(o.simulate);
    gpus_->setValue(o.simulatedGpus > 0 ? o.simulatedGpus : 2);
    if (!o.output.isEmpty()) {
        output_->setText(o.output);
    }
    prefillStandins(); // the working directory may have changed after the program
}

bool LaunchDialog::start() {
    if (isRunning()) {
        return false;
    }
    const RunCommand::Options o = options();
    if (o.program.isEmpty() || o.output.isEmpty()) {
        append(tr("[a program and a session file are needed]\n"));
        return false;
    }
    if (!QFileInfo(runner_).isExecutable()) {
        append(tr("[replayscope-run not found next to replayscope: %1]\n").arg(runner_));
        return false;
    }
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const QString& line : RunCommand::environment(o)) {
        const int eq = line.indexOf(QLatin1Char('='));
        env.insert(line.left(eq).trimmed(), line.mid(eq + 1));
    }
    output_path_ = QFileInfo(QDir(o.workingDirectory).filePath(o.output)).absoluteFilePath();
    RunCommand::Options absolute = o;
    absolute.output = output_path_;
    const QStringList args = RunCommand::arguments(absolute);
    process_.setProcessEnvironment(env);
    process_.setWorkingDirectory(o.workingDirectory);
    append(QStringLiteral("$ %1\n").arg(RunCommand::commandLine(absolute, runner_)));
    process_.start(runner_, args);
    if (!process_.waitForStarted(5000)) {
        updateButtons();
        return false;
    }
    updateButtons();
    emit sessionStarted(output_path_);
    return true;
}

void LaunchDialog::stop() {
    if (isRunning()) {
        append(tr("[stopping: SIGTERM to the target]\n"));
        process_.terminate();
    }
}

bool LaunchDialog::isRunning() const {
    return process_.state() != QProcess::NotRunning;
}

QString LaunchDialog::log() const {
    return log_->toPlainText();
}

void LaunchDialog::append(const QString& text) {
    log_->moveCursor(QTextCursor::End);
    log_->insertPlainText(text);
    log_->moveCursor(QTextCursor::End);
}

void LaunchDialog::prefillStandins() {
    if (!standins_->text().trimmed().isEmpty()) {
        return;
    }
    const QString beside = RunCommand::standinsBeside(program_->text(), directory_->text().trimmed());
    if (!beside.isEmpty()) {
        standins_->setText(beside);
    }
}

QString LaunchDialog::commandLine() const {
    return command_->text();
}

void LaunchDialog::updateCommand() {
    RunCommand::Options o = options();
    if (!o.output.isEmpty()) {
        o.output = QFileInfo(QDir(o.workingDirectory).filePath(o.output)).absoluteFilePath();
    }
    command_->setText(RunCommand::commandLine(o, runner_));
    command_->setCursorPosition(0); // the program and its first options in view, not the tail
    command_->setToolTip(
        tr("%1\n\nThe command Run starts (select and copy it to run it elsewhere)").arg(command_->text()));
}

void LaunchDialog::updateButtons() {
    run_->setEnabled(!isRunning());
    stop_->setEnabled(isRunning());
}

} // namespace rs::app

// SPDX-License-Identifier: MIT
#include "ui/TablePanel.h"

#include "model/CsvExporter.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include <QComboBox>
#include <QFileDialog>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace rs::app {

namespace {
/// Item data role of the agent filter's entries holding the agent's process (Qt::UserRole: its handle).
constexpr int kAgentProcessRole = Qt::UserRole + 1;
} // namespace

TablePanel::TablePanel(QAbstractItemModel* model, const QString& name, QWidget* parent)
    : QWidget(parent), name_(name), proxy_(new SessionFilterProxyModel(this)), view_(new QTableView(this)) {
    proxy_->setSourceModel(model);
    view_->setModel(proxy_);
    view_->setSortingEnabled(true);
    view_->sortByColumn(-1, Qt::AscendingOrder);
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setSelectionMode(QAbstractItemView::SingleSelection);
    view_->setAlternatingRowColors(true);
    view_->setWordWrap(false);
    view_->setTextElideMode(Qt::ElideMiddle); // long addresses and names keep both ends
    view_->verticalHeader()->hide();
    view_->verticalHeader()->setDefaultSectionSize(view_->fontMetrics().height() + 6);
    view_->horizontalHeader()->setStretchLastSection(true);
    view_->horizontalHeader()->setHighlightSections(false);
    view_->setObjectName(name + QStringLiteral("View"));

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    bar_ = new QHBoxLayout;
    count_ = new QLabel(this);
    count_->setForegroundRole(QPalette::PlaceholderText); // secondary text, readable on light and dark
    auto* exportButton = new QPushButton(tr("Export CSV…"), this);
    exportButton->setObjectName(name + QStringLiteral("ExportCsv"));
    connect(exportButton, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export %1 as CSV").arg(name_),
                                                          name_ + QStringLiteral(".csv"), tr("CSV (*.csv)"));
        if (!path.isEmpty() && !exportCsv(path)) {
            QMessageBox::warning(this, tr("Export failed"), tr("Cannot write %1.").arg(path));
        }
    });
    bar_->addStretch(1);
    bar_->addWidget(count_);
    bar_->addWidget(exportButton);
    layout->addLayout(bar_);
    layout->addWidget(view_, 1);
    connect(proxy_, &QAbstractItemModel::rowsInserted, this, &TablePanel::updateCount);
    connect(proxy_, &QAbstractItemModel::rowsRemoved, this, &TablePanel::updateCount);
    connect(proxy_, &QAbstractItemModel::modelReset, this, &TablePanel::updateCount);
    connect(proxy_, &QAbstractItemModel::layoutChanged, this, &TablePanel::updateCount);
    updateCount();
}

void TablePanel::updateCount() {
    const int shown = proxy_->rowCount(), total = proxy_->sourceModel()->rowCount();
    count_->setText(shown == total ? tr("%L1 rows").arg(total) : tr("%L1 of %L2 rows").arg(shown).arg(total));
}

void TablePanel::addTextFilter(const QString& placeholder) {
    text_ = new QLineEdit(this);
    text_->setPlaceholderText(placeholder);
    text_->setClearButtonEnabled(true);
    text_->setMinimumWidth(220);
    text_->setObjectName(name_ + QStringLiteral("TextFilter"));
    connect(text_, &QLineEdit::textChanged, proxy_, &SessionFilterProxyModel::setTextFilter);
    bar_->insertWidget(bar_->count() - 3, text_);
}

void TablePanel::addAgentFilter() {
    agent_ = new QComboBox(this);
    agent_->setObjectName(name_ + QStringLiteral("AgentFilter"));
    agent_->addItem(tr("All agents"));
    connect(agent_, &QComboBox::currentIndexChanged, this, [this](int i) {
        const QVariant handle = agent_->itemData(i), process = agent_->itemData(i, kAgentProcessRole);
        proxy_->setAgentFilter(
            handle.isValid() ? std::optional<ProcessKey>(ProcessKey{process.toInt(), handle.toLongLong()})
                             : std::nullopt);
    });
    bar_->insertWidget(bar_->count() - 3, agent_);
}

QList<QPair<QString, ProcessKey>> TablePanel::agentChoices(const SessionSnapshot& snapshot) {
    QList<QPair<QString, ProcessKey>> out;
    if (!snapshot.isNull()) {
        for (const AgentInfo& a : snapshot->agents) {
            if (a.isGpu()) {
                out.push_back({snapshot.agentLabel(a.process, a.handle), ProcessKey{a.process, a.handle}});
            }
        }
    }
    return out;
}

void TablePanel::setAgents(const QList<QPair<QString, ProcessKey>>& agents) {
    if (!agent_ || agent_->count() == agents.size() + 1) {
        return;
    }
    const QString current = agent_->currentText();
    agent_->blockSignals(true);
    agent_->clear();
    agent_->addItem(tr("All agents"));
    for (const auto& [label, key] : agents) {
        agent_->addItem(label, key.second);
        agent_->setItemData(agent_->count() - 1, key.first, kAgentProcessRole);
    }
    agent_->setCurrentIndex(std::max(0, agent_->findText(current)));
    agent_->blockSignals(false);
}

void TablePanel::addProcessFilter() {
    process_ = new QComboBox(this);
    process_->setObjectName(name_ + QStringLiteral("ProcessFilter"));
    process_->addItem(tr("All processes"));
    process_->setVisible(false);
    connect(process_, &QComboBox::currentIndexChanged, this, [this](int i) {
        const QVariant v = process_->itemData(i);
        proxy_->setProcessFilter(v.isValid() ? std::optional<int>(v.toInt()) : std::nullopt);
    });
    bar_->insertWidget(bar_->count() - 3, process_);
}

QList<QPair<QString, int>> TablePanel::processChoices(const SessionSnapshot& snapshot) {
    QList<QPair<QString, int>> out;
    if (!snapshot.isNull()) {
        for (const ProcessInfo& p : snapshot->processes) {
            out.push_back({p.label(), p.process});
        }
    }
    return out;
}

void TablePanel::setProcesses(const QList<QPair<QString, int>>& processes) {
    if (!process_) {
        return;
    }
    process_->setVisible(processes.size() > 1);
    if (process_->count() == processes.size() + 1) {
        bool same = true;
        for (int i = 0; i < processes.size() && same; ++i) {
            same = process_->itemText(i + 1) == processes[i].first;
        }
        if (same) {
            return;
        }
    }
    const QVariant current = process_->currentData();
    process_->blockSignals(true);
    process_->clear();
    process_->addItem(tr("All processes"));
    for (const auto& [label, process] : processes) {
        process_->addItem(label, process);
    }
    process_->setCurrentIndex(std::max(0, process_->findData(current)));
    process_->blockSignals(false);
}

void TablePanel::addCodeFilter(const QString& label, const QList<QPair<QString, int>>& codes) {
    auto* l = new QLabel(label, this);
    code_ = new QComboBox(this);
    code_->setObjectName(name_ + QStringLiteral("CodeFilter"));
    connect(code_, &QComboBox::currentIndexChanged, this, [this](int i) {
        const QVariant v = code_->itemData(i);
        proxy_->setCodeFilter(v.isValid() ? std::optional<int>(v.toInt()) : std::nullopt);
    });
    bar_->insertWidget(bar_->count() - 3, l);
    bar_->insertWidget(bar_->count() - 3, code_);
    setCodes(codes);
}

void TablePanel::setCodes(const QList<QPair<QString, int>>& codes) {
    if (!code_) {
        return;
    }
    const QString current = code_->currentText();
    code_->blockSignals(true);
    code_->clear();
    code_->addItem(tr("All"));
    for (const auto& [label, code] : codes) {
        code_->addItem(label, code);
    }
    code_->setCurrentIndex(std::max(0, code_->findText(current)));
    code_->blockSignals(false);
}

void TablePanel::setColumnWidths(const QList<int>& characters) {
    const int w = view_->fontMetrics().averageCharWidth();
    for (int c = 0; c < characters.size(); ++c) {
        view_->setColumnWidth(c, characters[c] * w + 16);
    }
}

void TablePanel::fitColumnsToContents(int maxCharacters) {
    const int limit = maxCharacters * view_->fontMetrics().averageCharWidth() + 16;
    const int last = proxy_->columnCount() - 1;
    QHeaderView* header = view_->horizontalHeader();
    const QAbstractItemView* items = view_; // sizeHintForColumn is public there, protected in QTableView
    std::vector<int> cells(std::size_t(std::max(last, 0))), widths(cells.size());
    int total = 0, slack = 0;
    for (int c = 0; c < last; ++c) {
        const int cell = std::min(items->sizeHintForColumn(c), limit);
        const int w = std::min(std::max(cell, header->sectionSizeHint(c)), limit);
        cells[std::size_t(c)] = cell;
        widths[std::size_t(c)] = w;
        total += w;
        slack += w - cell;
    }
    // When the headers make the row wider than the view, they give back their excess over the cells
    // (a header then elides) before the table needs a horizontal scroll bar. The stretching last column
    // keeps room for its own contents.
    const int lastWidth =
        last >= 0 ? std::max(items->sizeHintForColumn(last), header->sectionSizeHint(last)) : 0;
    const int available = view_->viewport()->width() - lastWidth;
    const int excess = total - available;
    for (int c = 0; c < last; ++c) {
        int w = widths[std::size_t(c)];
        if (available > 0 && excess > 0 && slack > 0) {
            w -= int(std::lround(double(w - cells[std::size_t(c)]) * std::min(1.0, double(excess) / slack)));
        }
        view_->setColumnWidth(c, w);
    }
}

bool TablePanel::exportCsv(const QString& path) const {
    return CsvExporter::writeFile(*proxy_, path);
}

} // namespace rs::app

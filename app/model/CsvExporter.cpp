// SPDX-License-Identifier: MIT
#include "model/CsvExporter.h"

#include "model/ModelRoles.h"

#include <QAbstractItemModel>
#include <QSaveFile>

namespace rs::app {

namespace {
QByteArray field(const QString& text) {
    QString t = text;
    if (t.contains(QLatin1Char(',')) || t.contains(QLatin1Char('"')) || t.contains(QLatin1Char('\n'))) {
        t.replace(QLatin1String("\""), QLatin1String("\"\""));
        t = QLatin1Char('"') + t + QLatin1Char('"');
    }
    return t.toUtf8();
}
} // namespace

void CsvExporter::write(const QAbstractItemModel& model, QIODevice& out) {
    const int columns = model.columnCount();
    QByteArray line;
    for (int c = 0; c < columns; ++c) {
        line += (c ? "," : "") + field(model.headerData(c, Qt::Horizontal).toString());
    }
    out.write(line + "\n");
    for (int r = 0; r < model.rowCount(); ++r) {
        line.clear();
        for (int c = 0; c < columns; ++c) {
            const QModelIndex i = model.index(r, c);
            QVariant v = i.data(SortRole);
            if (!v.isValid()) {
                v = i.data(Qt::DisplayRole);
            }
            line += (c ? "," : "") + field(v.toString());
        }
        out.write(line + "\n");
    }
}

bool CsvExporter::writeFile(const QAbstractItemModel& model, const QString& path, QString* error) {
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        if (error) {
            *error = f.errorString();
        }
        return false;
    }
    write(model, f);
    if (!f.commit()) {
        if (error) {
            *error = f.errorString();
        }
        return false;
    }
    return true;
}

} // namespace rs::app

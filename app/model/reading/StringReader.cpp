// SPDX-License-Identifier: MIT
#include "model/reading/ReadContext.h"
#include "model/reading/Readers.h"

#include <replayscope/ipc/records.h>

namespace rs::app {

namespace {

/// The names of enum E from the vocabulary, for a file whose `enum_names` lacks them (the format-4
/// enums in files written while format 4 was changed in place).
template <typename E>
void addDefaultNames(QHash<QString, QHash<int, QString>>& names) {
    using Vocabulary = rs::ipc::EnumVocabulary<E>;
    const QString table = QString::fromLatin1(Vocabulary::table.data(), qsizetype(Vocabulary::table.size()));
    if (names.contains(table)) {
        return;
    }
    QHash<int, QString>& list = names[table];
    for (const rs::ipc::EnumName& n : Vocabulary::names) {
        list.insert(int(n.code), QString::fromLatin1(n.name.data(), qsizetype(n.name.size())));
    }
}

} // namespace

SessionError StringReader::read(ReadContext& context, SessionData& out) {
    using rs::session::EnumNameColumn;
    using rs::session::StringColumn;
    RowCursor& q = context.query();
    if (!context.run(rs::session::enum_names_query(context.layout()))) {
        return context.queryError(QStringLiteral("enum names"));
    }
    while (q.next()) {
        out.enumNames[value(q, EnumNameColumn::kind).toString()][i32(q, EnumNameColumn::code)] =
            value(q, EnumNameColumn::name).toString();
    }
    addDefaultNames<rs::ipc::SnapshotStore>(out.enumNames);
    addDefaultNames<rs::ipc::ChunkHashPath>(out.enumNames);
    if (!context.run(rs::session::strings_query(context.layout()))) {
        return context.queryError(QStringLiteral("strings"));
    }
    while (q.next()) {
        // Capped and with visible escapes (RowCursor::text); newlines stay for the multi-line texts.
        context.strings.insert({i32(q, StringColumn::process), i64(q, StringColumn::id)},
                               q.text(int(StringColumn::text), true));
    }
    return {};
}

} // namespace rs::app

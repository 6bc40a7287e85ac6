// SPDX-License-Identifier: MIT
// The schema part of the session file check (schema_check.h).
#include "replayscope/session/schema_check.h"

#include "replayscope/session/read_queries.h"

#include <map>

namespace rs::session {

namespace {

/// The tables of session/schema/tables.sql: wherever one of them is present it must be a table.
constexpr std::string_view kTables[] = {"session",
                                        "processes",
                                        "event_counts",
                                        "sequence_gaps",
                                        "enum_names",
                                        "strings",
                                        "agents",
                                        "allocations",
                                        "executables",
                                        "module_variables",
                                        "inventories",
                                        "inventory_regions",
                                        "handles",
                                        "dispatch_rows",
                                        "extra_passes",
                                        "snapshot_failures",
                                        "restore_skips",
                                        "fidelity_mismatches",
                                        "async_copies",
                                        "warnings",
                                        "restore_failures",
                                        "snapshot_store_rows",
                                        "snapshot_placements",
                                        "restore_rows",
                                        "restore_misses",
                                        "counters",
                                        "pass_counters"};

/// The views of session/schema/views.sql. Format 1 stored `dispatches`, `snapshots` and `passes` as tables,
/// early format-4 files `snapshot_stores` and `restores`: up to format 4 a table stands for any of them.
constexpr std::string_view kViews[] = {
    "snapshot_stores", "restores", "dispatches",     "snapshots",
    "passes",          "declines", "process_totals", "pass_counter_values"};

const char* type_word(ObjectType type) {
    switch (type) {
    case ObjectType::table:
        return "table";
    case ObjectType::view:
        return "view";
    case ObjectType::table_or_view:
        return "table or view";
    }
    return "table";
}

/// The type the schema gives `name` in a file of `format_version`; false when the schema does not name it.
bool expected_type(std::string_view name, int format_version, ObjectType& type) {
    for (const std::string_view t : kTables) {
        if (t == name) {
            type = ObjectType::table;
            return true;
        }
    }
    for (const std::string_view v : kViews) {
        if (v == name) {
            type = format_version >= 5 ? ObjectType::view : ObjectType::table_or_view;
            return true;
        }
    }
    return false;
}

bool matches(const std::string& stored, ObjectType type) {
    switch (type) {
    case ObjectType::table:
        return stored == "table";
    case ObjectType::view:
        return stored == "view";
    case ObjectType::table_or_view:
        return stored == "table" || stored == "view";
    }
    return false;
}

std::string column_text(sqlite3_stmt* statement, int column) {
    const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(statement, column));
    return text == nullptr
               ? std::string()
               : std::string(text, static_cast<std::size_t>(sqlite3_column_bytes(statement, column)));
}

} // namespace

std::vector<RequiredObject> required_objects(int format_version) {
    std::vector<RequiredObject> out;
    for (const std::string_view name : required_tables(format_version)) {
        ObjectType type = ObjectType::table;
        expected_type(name, format_version, type);
        out.push_back({name, type});
    }
    if (format_version >= 5) {
        for (const std::string_view name :
             {"snapshot_store_rows", "restore_rows", "snapshot_placements", "restore_misses"}) {
            out.push_back({name, ObjectType::table});
        }
        out.push_back({"snapshot_stores", ObjectType::view});
        out.push_back({"restores", ObjectType::view});
    }
    if (format_version >= 7) {
        out.push_back({"counters", ObjectType::table});
        out.push_back({"pass_counters", ObjectType::table});
        out.push_back({"pass_counter_values", ObjectType::view});
    }
    return out;
}

SchemaCheck check_session_schema(sqlite3* db, int format_version) {
    SchemaCheck check;
    sqlite3_stmt* statement = nullptr;
    if (sqlite3_prepare_v2(db, "SELECT type, name, tbl_name FROM sqlite_master", -1, &statement, nullptr) !=
        SQLITE_OK) {
        check.message = std::string("its schema cannot be read: ") + sqlite3_errmsg(db);
        return check;
    }
    std::map<std::string, std::string> types; // name -> type
    int rc = SQLITE_OK;
    while ((rc = sqlite3_step(statement)) == SQLITE_ROW) {
        const std::string type = column_text(statement, 0);
        const std::string name = column_text(statement, 1);
        if (type == "trigger") {
            check.object = name;
            check.message = "it holds the trigger \"" + name + "\" on \"" + column_text(statement, 2) +
                            "\" (session files have none)";
            sqlite3_finalize(statement);
            return check;
        }
        types.emplace(name, type);
    }
    sqlite3_finalize(statement);
    if (rc != SQLITE_DONE) {
        check.message = std::string("its schema cannot be read: ") + sqlite3_errmsg(db);
        return check;
    }
    const std::string format = "format " + std::to_string(format_version);
    for (const RequiredObject& object : required_objects(format_version)) {
        const auto found = types.find(std::string(object.name));
        if (found == types.end()) {
            check.object = object.name;
            check.message = std::string("it lacks the ") + type_word(object.type) + " \"" +
                            std::string(object.name) + "\" (required by " + format + ")";
            return check;
        }
    }
    for (const auto& [name, type] : types) {
        ObjectType expected = ObjectType::table;
        if (expected_type(name, format_version, expected) && !matches(type, expected)) {
            check.object = name;
            check.message = "\"" + name + "\" is a " + type + ", not a " + type_word(expected) + " (" +
                            format + " stores it as a " + type_word(expected) + ")";
            return check;
        }
    }
    check.ok = true;
    return check;
}

} // namespace rs::session

// SPDX-License-Identifier: MIT
// A session file written record by record through SessionStore, as the collector writes it: strings,
// agents, dispatches, passes and counter values with exact values, for the counter suites of tests/app.
#pragma once

#include "replayscope/ipc/records.h"
#include "replayscope/ipc/session_store.h"

#include <QTest>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

namespace rs::app::test {

using ipc::DeviceType;
using ipc::DispatchDecision;
using ipc::EventType;
using ipc::Record;
using ipc::SessionStore;
using ipc::StringId;

/// Writes string, agent, dispatch, pass and counter_value records into a new session at `path`.
class CounterSessionWriter {
  public:
    explicit CounterSessionWriter(const std::string& path) {
        std::string error;
        store_ = SessionStore::open(path, SessionStore::Mode::create, error);
        QVERIFY2(store_, error.c_str());
    }
    StringId string(const std::string& text) {
        Record& r = next(EventType::string);
        r.string.id = ++strings_;
        r.string.original_length = std::uint32_t(text.size());
        r.string.length = std::uint16_t(text.size());
        std::memcpy(r.string.text, text.data(), text.size());
        insert(r);
        return r.string.id;
    }
    void dispatch(std::uint64_t id, StringId kernel, std::uint64_t agent = 0xa1,
                  DispatchDecision decision = DispatchDecision::replayed) {
        Record& r = next(EventType::dispatch);
        r.dispatch = {id, agent, 0x9a, 0xdead, kernel, {64, 1, 1}, {64, 1, 1}, decision};
        insert(r);
    }
    void agent(std::uint64_t handle, StringId name, std::uint32_t node) {
        Record& r = next(EventType::agent);
        r.agent = {handle, name, name, DeviceType::gpu, node};
        insert(r);
    }
    void pass(std::uint64_t dispatch, std::uint32_t index) {
        Record& r = next(EventType::pass);
        r.pass = {dispatch, 1000 * (index + 1), 1000 * (index + 1) + 500, 0, 0, index, 0, 0, -1};
        insert(r);
    }
    void counter(std::uint64_t dispatch, std::uint32_t pass, std::uint32_t id, std::uint64_t value) {
        Record& r = next(EventType::counter_value);
        r.counter_value = {dispatch, value, pass, id};
        insert(r);
    }
    bool finish() { return store_->finish("test"); }

  private:
    Record& next(EventType type) {
        std::memset(&record_, 0, sizeof record_);
        record_.type = type;
        record_.sequence = ++sequence_;
        record_.timestamp_ns = 1000 * sequence_;
        return record_;
    }
    void insert(const Record& r) { QVERIFY2(store_->insert(r), store_->last_error().c_str()); }
    std::unique_ptr<SessionStore> store_;
    Record record_{};
    std::uint64_t sequence_ = 0;
    StringId strings_ = 0;
};

} // namespace rs::app::test

// SPDX-License-Identifier: MIT
// StderrCapture: what the simulator prints on stderr during a test step (queue errors, loader errors), for
// the suites that check those messages (tst_sim_elf_code_objects, tst_isa_instructions).
#pragma once

#include <QByteArray>

#include <cstdio>
#include <unistd.h>

namespace rs::test {

/// Captures what the process writes to stderr between construction and text().
class StderrCapture {
  public:
    StderrCapture() {
        std::fflush(stderr);
        saved_ = dup(2);
        file_ = std::tmpfile();
        dup2(fileno(file_), 2);
    }
    ~StderrCapture() {
        restore();
        std::fclose(file_);
    }
    StderrCapture(const StderrCapture&) = delete;
    StderrCapture& operator=(const StderrCapture&) = delete;
    QByteArray text() {
        restore();
        std::fseek(file_, 0, SEEK_SET);
        QByteArray out;
        char buf[4096];
        size_t n;
        while ((n = std::fread(buf, 1, sizeof(buf), file_)) > 0) {
            out.append(buf, static_cast<qsizetype>(n));
        }
        return out;
    }

  private:
    void restore() {
        if (saved_ >= 0) {
            std::fflush(stderr);
            dup2(saved_, 2);
            close(saved_);
            saved_ = -1;
        }
    }
    int saved_ = -1;
    FILE* file_ = nullptr;
};

} // namespace rs::test

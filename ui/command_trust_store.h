#pragma once
// Which external commands a person has approved (issue: "approval covers exactly what was
// shown"). An approval is keyed on a SHA-256 of the command review's fingerprint
// (evaluators/command_review.h): the resolved program, every argument, the working folder, the
// environment the file sets, the timeout and the concurrency. Any change of the evaluator section
// gives another key, so the next step asks again.
//
// Approvals last for the session unless the person ticks "Trust this file's command"; then this
// store keeps (key, absolute file path) in the per-user settings, and the same section in the
// same file runs without asking in later sessions. The same section in another file, or a changed
// section in this one, is not trusted.

#include <QByteArray>
#include <QList>
#include <QString>

class QSettings;

namespace sebo {
struct CommandReview;
struct EvaluatorSpec;
}  // namespace sebo

namespace sebo::ui {

// The approval key of a reviewed command: the hex SHA-256 of its fingerprint.
QByteArray command_approval_key(const CommandReview& review);
// The key of a spec as it would start from this process now.
QByteArray command_approval_key(const EvaluatorSpec& spec);

class CommandTrustStore {
public:
    struct Entry {
        QString file;    // absolute, symbolic links resolved
        QByteArray key;  // command_approval_key
    };
    // The oldest entries are dropped beyond this many.
    static constexpr int kMaxEntries = 256;

    // The store lives in `settings` (the application's, or a test's file).
    explicit CommandTrustStore(QSettings& settings);

    bool isTrusted(const QByteArray& key, const QString& file) const;
    // Trusts `key` for `file`, replacing what was trusted for that file before.
    void trust(const QByteArray& key, const QString& file);
    void forget(const QString& file);
    void clear();
    QList<Entry> entries() const;

private:
    void write(const QList<Entry>& entries);

    QSettings& settings_;
};

// The file path under which the store knows a file: absolute, symbolic links resolved.
QString trusted_file_path(const QString& file);

}  // namespace sebo::ui

#include "command_trust_store.h"

#include <QCryptographicHash>
#include <QFileInfo>
#include <QSettings>

#include "evaluators/command_review.h"

namespace sebo::ui {

namespace {

const char* const kGroup = "commandTrust";
const char* const kArray = "entries";

}  // namespace

QByteArray command_approval_key(const CommandReview& review) {
    return QCryptographicHash::hash(QByteArray::fromStdString(review.fingerprint), QCryptographicHash::Sha256).toHex();
}

QByteArray command_approval_key(const EvaluatorSpec& spec) { return command_approval_key(review_command(spec)); }

QString trusted_file_path(const QString& file) {
    const QFileInfo info(file);
    const QString canonical = info.canonicalFilePath();
    return canonical.isEmpty() ? info.absoluteFilePath() : canonical;
}

CommandTrustStore::CommandTrustStore(QSettings& settings) : settings_(settings) {}

QList<CommandTrustStore::Entry> CommandTrustStore::entries() const {
    QList<Entry> out;
    settings_.beginGroup(kGroup);
    const int n = settings_.beginReadArray(kArray);
    for (int i = 0; i < n; ++i) {
        settings_.setArrayIndex(i);
        Entry entry{settings_.value("file").toString(), settings_.value("key").toByteArray()};
        // A malformed entry (edited by hand) trusts nothing.
        if (!entry.file.isEmpty() && entry.key.size() == 64) out.push_back(std::move(entry));
    }
    settings_.endArray();
    settings_.endGroup();
    return out;
}

void CommandTrustStore::write(const QList<Entry>& entries) {
    settings_.beginGroup(kGroup);
    settings_.remove("");
    settings_.beginWriteArray(kArray, static_cast<int>(entries.size()));
    for (int i = 0; i < entries.size(); ++i) {
        settings_.setArrayIndex(i);
        settings_.setValue("file", entries[i].file);
        settings_.setValue("key", entries[i].key);
    }
    settings_.endArray();
    settings_.endGroup();
    settings_.sync();
}

bool CommandTrustStore::isTrusted(const QByteArray& key, const QString& file) const {
    if (key.isEmpty() || file.isEmpty()) return false;
    const QString path = trusted_file_path(file);
    for (const Entry& entry : entries())
        if (entry.file == path) return entry.key == key;
    return false;
}

void CommandTrustStore::trust(const QByteArray& key, const QString& file) {
    if (key.isEmpty() || file.isEmpty()) return;
    const QString path = trusted_file_path(file);
    QList<Entry> list = entries();
    list.removeIf([&](const Entry& entry) { return entry.file == path; });
    list.push_back({path, key});
    while (list.size() > kMaxEntries) list.removeFirst();
    write(list);
}

void CommandTrustStore::forget(const QString& file) {
    const QString path = trusted_file_path(file);
    QList<Entry> list = entries();
    if (list.removeIf([&](const Entry& entry) { return entry.file == path; }) > 0) write(list);
}

void CommandTrustStore::clear() { write({}); }

}  // namespace sebo::ui

#pragma once

#include "base/rediserror.h"
#include "kinds/lockclassifier.h"

#include <QJsonObject>
#include <QList>
#include <QString>

namespace LockScope {

class LockLayout;

// One audited action, as both front-ends write it: what was done, to which lock on which server, and how it ended in
// one vocabulary (the "outcome" field), so that one query reads the CLI's records and the console's alike. Each
// front-end's older words stay in "result" (lockscope-cli: "decremented", "unchanged"; the console: "still-held",
// "guard-failed", "already-gone"), derived here and nowhere else. docs/cli.md#files and the user guide's section 9
// list both.
class AuditRecord
{
public:
    enum class Outcome {
        Done, // a setting changed (watchdog on or off, keyspace events), a queue repaired
        Acquired,
        Busy, // held by someone else: not acquired
        Released, // the last level: the lock is free, its waiters woken
        StillHeld, // one level of several given back
        NotHeld, // nothing of that owner's to release
        Deleted, // force release: gone, its waiters woken
        GuardFailed, // force release: the holders were no longer what was shown or named; nothing changed
        AlreadyGone, // force release: nothing was there
        Failed, // the error is in "result"
    };
    // Whose "result" words the record keeps.
    enum class Writer { Cli, Console };

    AuditRecord() = default; // no action yet: an operation's answer before it ran
    AuditRecord(QString action, QString url, const QByteArray &name, const QByteArray &clientId);

    void setOutcome(Outcome outcome) { m_outcome = outcome; }
    void setError(const RedisError &error); // Failed, with the error as the result
    // How a guarded write ended: the error, or the outcome with holders_now when its guard failed (who held it
    // instead).
    void setGuardedOutcome(Outcome outcome, const RedisError &error, const QList<QByteArray> &holdersNow);
    Outcome outcome() const { return m_outcome; }
    // Any field of the action's own (owner, holders_before, guard, holders_now, kind, removed, ...).
    void insert(const QString &key, const QJsonValue &value) { m_fields.insert(key, value); }
    // "kind" for a layout whose holders are bare tokens ("string"): nothing else in its record says which library's
    // lock it was. Redisson's records, whose holders name their client, carry none.
    void setLayout(const LockLayout &layout);
    // holders_before, as the objects {"owner": ...} both front-ends write.
    void setHoldersBefore(const QList<QByteArray> &owners);
    // holders_before with each holder's count, as an operation read them just before it acted.
    void setHoldersBefore(const QList<LockHolder> &holders);
    // "reason": why the person acted, as they gave it (--reason, the console's reason field); none when empty.
    void setReason(const QString &reason);
    // The line appended to the audit log; false (with the reason) when it could not be written.
    bool append(Writer writer, QString *error = nullptr, QJsonObject *written = nullptr) const;

    // The line to append (AuditLog adds ts, user, host and pid).
    QJsonObject toJson(Writer writer) const;
    static QString outcomeName(Outcome outcome); // "still-held", "guard-failed", ...
    static QString resultWord(Writer writer, Outcome outcome);

private:
    QJsonObject m_fields;
    Outcome m_outcome = Outcome::Done;
    RedisError m_error;
};

} // namespace LockScope

#pragma once

#include "base/rediserror.h"
#include "kinds/lockclassifier.h"
#include "ops/auditrecord.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace LockScope {

// One holder a policy's rule judged gone: what the report shows a person, and what its run then compares the lock
// against before releasing it.
struct ReapItem
{
    enum class Action {
        Release, // every signal of its rule holds: released if approved and unchanged
        OverQuota, // as Release, past the run's quota (the policy's or its rule's): left for a later run
        Protected, // its name is protected: never released
    };
    QByteArray name;
    QByteArray kind; // JSON's "kind"
    QByteArray library;
    QByteArray owner; // the holder as stored (a hash field, a token)
    qint64 count = 1;
    qint64 ttlMs = -2;
    QString rule;
    Action action = Action::Release;
    qint64 ageMs = -1; // how long the hold has lasted, as far as known
    bool ageAtLeast = false; // the hold began before anything watched it: ageMs is a lower bound
    QString liveness; // the verdict's one line
    QStringList evidence; // each signal of the rule, as it held
    std::optional<LockInfo> lock; // the lock as the judgement read it (not in the JSON): what a release runs on

    // After a run: Released (or Deleted), NotHeld/StillHeld for a lock that changed (left alone), Failed.
    std::optional<AuditRecord::Outcome> outcome;
    RedisError error;
    QString leftAlone; // why it was not released (changed since the report, not approved, over quota, protected)
    QByteArray verified; // "gone", "new-owner", "still-held", or empty (not run)

    static QByteArray actionId(Action action); // "release", "over-quota", "protected"
    // The fields an approval covers: what the lock is and who holds it how often (not the evidence, whose words and
    // times change from one reading to the next).
    bool sameHold(const ReapItem &other) const;
    QJsonObject toJson() const;
    static std::optional<ReapItem> fromJson(const QJsonObject &o);
};

// What a run found: every item, and the hash that an approval names. The hash covers the items to release (their
// sameHold fields), the policy's own hash and the server, so an approval is for this policy on this server only.
struct ReapReport
{
    QString policy;
    QByteArray policySha256;
    QString server;
    QList<ReapItem> items;
    QStringList partial; // what could not be seen; a partial report is still a report of what was seen
    qint64 observedMs = 0;

    QByteArray sha256() const;
    QList<ReapItem> toRelease() const;
    // The last line of the JSON lines: report_sha256, policy, policy_sha256, server, counts, dry_run, partial.
    QJsonObject summaryJson(bool dryRun) const;
    // The report as a person reads it.
    QString text() const;
};

// An approval: a report hash typed or pasted, or the file a dry run wrote (its JSON lines), whose items are checked
// against the hash it carries (a report edited after it was written is refused).
struct ReapApproval
{
    QByteArray sha256;
    std::optional<ReapReport> report; // from a file; none: a bare hash
    // A 64-digit hex hash, or a path to a dry run's JSON lines; nullopt with *error otherwise.
    static std::optional<ReapApproval> read(const QString &value, QString *error);
    // A dry run's JSON lines (read from source, for the messages).
    static std::optional<ReapApproval> fromReport(const QByteArray &lines, const QString &source, QString *error);
};

} // namespace LockScope

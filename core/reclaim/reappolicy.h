#pragma once

#include "kinds/lockclassifier.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <optional>

namespace LockScope {

// One rule of a reap policy: which locks it covers (a name pattern, libraries, kinds, only those without a TTL), and
// the signals that their holder is gone, every one of which must hold. A rule needs two of them (an age, the
// likely-dead verdict held for a while, its connections gone): one signal alone cannot tell a slow or paused holder
// from a dead one.
struct ReapRule
{
    QString name;
    QByteArray pattern = "*";
    QList<QByteArray> libraries; // JSON's "library" ids; empty: any
    QList<QByteArray> kinds; // JSON's "kind" ids; empty: any
    bool ttlLess = false; // only locks whose key never expires
    qint64 minAgeMs = -1; // the hold has lasted at least this long; -1: not a criterion
    qint64 verdictForMs = -1; // the verdict has been "likely dead" at least this long; -1: not a criterion
    bool connectionGone = false; // every connection known to speak for the holder has left
    int maxPerRun = -1; // at most this many locks a run; -1: only the policy's quota

    int signalCount() const;
    // Whether the rule covers this lock (by what the lock is, not by what its holders do).
    bool covers(const LockInfo &lock) const;
};

// A policy file (docs/reap-policy.md): the rules, the names no rule may touch, and the quota for a run.
struct ReapPolicy
{
    QString name; // the policy's own name (its "name", else the file's base name): what production asks to be typed
    QList<ReapRule> rules;
    QList<QByteArray> protect; // globs: never reaped, whatever a rule says
    int maxPerRun = 10;
    bool unattended = false; // --yes alone may act, without a report approved by a person (and serve-metrics' reaper)
    qint64 everyMs = 5 * 60 * 1000; // serve-metrics' reaper: a report (and, unattended, a run) this often
    QByteArray sha256; // of the file's bytes (hex): the report names the policy it was made under

    bool isProtected(const QByteArray &name) const;
    // The first rule that covers the lock, or nullptr.
    const ReapRule *ruleFor(const LockInfo &lock) const;
    // The longest verdict_for: how long a run watches before it reports.
    qint64 observeMs() const;
    // The narrowest pattern that covers every rule: the common one, else "*".
    QByteArray scanPattern() const;

    // Parses the YAML; on any mistake (an unknown key, a bad duration, an unknown kind or library, a rule with fewer
    // than two signals) nullopt with *error saying where and what.
    static std::optional<ReapPolicy> parse(const QByteArray &yaml, const QString &fallbackName, QString *error);
    static std::optional<ReapPolicy> load(const QString &path, QString *error);
};

} // namespace LockScope

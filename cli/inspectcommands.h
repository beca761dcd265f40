#pragma once

#include "commands.h"

#include "kinds/holderfacts.h"
#include "kinds/lockclassifier.h"
#include <vector>

namespace LockScope {
class HolderWatch;
}

namespace LockScope::Cli {

// list [--pattern GLOB]: one snapshot of every lock whose name matches; a table, or a JSON array of locks.
class ListCommand : public Command
{
    Q_OBJECT
public:
    using Command::Command;
    void start() override;

private:
    // watch: each holder's liveness for the JSON; nullptr for the table.
    void print(const std::vector<QList<LockInfo>> &batches, const HolderWatch *watch);
    QJsonObject partialJson() const; // {"partial": true, "why": [...]}

    QStringList m_partial; // what could not be seen: a node down, CLIENT LIST denied
};

// show NAME [--observe MS]: one lock in full (holders with their liveness and connections, TTL, waiters, queue,
// readers, evidence, warnings); exit 1 when it is not one. With --observe, the lock is watched that long first, so
// its renewals are seen (showcommand.cpp).
class ShowCommand : public Command
{
    Q_OBJECT
public:
    using Command::Command;
    void start() override;

private:
    void observe(const QByteArray &name, int observeMs);
    void print(const LockInfo &lock, const HolderWatch &watch);
    void notALock(RedisRouter *connection, const QByteArray &name);
};

// The lock object of conventions.md, plus "evidence" and "warnings"; facts adds each holder's liveness.
QJsonObject lockJson(const LockInfo &lock, qint64 nowMs, const HolderFactsSource &facts = {});
// The reading side's connection options: read-only whatever the flags said.
ConnectionOptions readOnly(ConnectionOptions options);
// A duration a person reads at a glance ("14 min 57 s", "28.0 s"), as the console shows it; --json keeps ttl_ms.
QString ttlText(qint64 ttl);

} // namespace LockScope::Cli

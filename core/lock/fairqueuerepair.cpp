// Fair-queue inspection and repair: the part of LockClient that support staff use on a jammed fair lock.
#include "fairlockscripts.h"
#include "lockclient.h"
#include "locknames.h"
#include "redisrouter.h"

#include <QDateTime>

namespace LockScope {

void LockClient::inspectFairQueue(const QByteArray &name, Callback<FairQueueReport> done)
{
    FairQueueReport report;
    report.name = name;
    if (const RedisError error = validateName(name)) {
        report.error = error;
        QMetaObject::invokeMethod(
            this, [done, report] { done(report); }, Qt::QueuedConnection);
        return;
    }
    QPointer<LockClient> self(this);
    auto held = std::make_shared<RedisResult>();
    m_connection->command({ "EXISTS", name }, [held](const RedisResult &r) { *held = r; });
    m_connection->command({ "LRANGE", LockNames::fairQueue(name), "0", "-1" },
        [self, name, held, report, done](const RedisResult &members) mutable {
            if (!self)
                return;
            if (!members.ok() || !held->ok()) {
                report.error = members.ok() ? held->error : members.error;
                done(report);
                return;
            }
            report.lockHeld = held->value.toInteger() == 1;
            if (members.value.size() == 0) {
                done(report);
                return;
            }
            // Deadlines and listeners for every member, in one pipelined round trip. Waiters of a sharded fleet listen
            // on shard channels, which only SHARDNUMSUB counts; in "both" mode (and before "auto" has resolved) either
            // namespace may hold a live waiter, so both are counted: a waiter missed here would be removed as dead.
            const PublishMode mode = self->publishMode();
            const bool plain = mode != PublishMode::Sharded;
            const bool shard = mode != PublishMode::Plain;
            QList<QByteArray> channels;
            auto deadlines = std::make_shared<QList<RedisValue>>();
            self->m_connection->cork();
            for (const RedisValue &m : members.value.elements()) {
                report.waiters.append({ m.bytes() });
                channels << LockNames::fairChannel(name, m.bytes());
                self->m_connection->command({ "ZSCORE", LockNames::fairTimeouts(name), m.bytes() },
                    [deadlines](const RedisResult &r) { deadlines->append(r.value); });
            }
            auto plainCounts = std::make_shared<RedisResult>();
            // Runs on the last reply of the round trip, the shard counts when they are read.
            auto finish = [report, deadlines, plain, shard, mode, plainCounts, done](
                              const RedisResult &shardCounts) mutable {
                // An unresolved "auto" on a server without sharded pub/sub (before Redis 7) has no shard waiters.
                const qsizetype size = 2 * report.waiters.size();
                const bool shardUnknown = shard && (!shardCounts.ok() || shardCounts.value.size() != size);
                if (plain && (!plainCounts->ok() || plainCounts->value.size() != size)) {
                    report.error = plainCounts->ok()
                        ? RedisError(RedisError::Kind::Protocol, QStringLiteral("unexpected PUBSUB NUMSUB reply"))
                        : plainCounts->error;
                    done(report);
                    return;
                }
                if (shardUnknown && mode != PublishMode::Auto) {
                    report.error = shardCounts.ok()
                        ? RedisError(RedisError::Kind::Protocol, QStringLiteral("unexpected PUBSUB SHARDNUMSUB reply"))
                        : shardCounts.error;
                    done(report);
                    return;
                }
                const qint64 now = QDateTime::currentMSecsSinceEpoch();
                for (int i = 0; i < report.waiters.size(); ++i) {
                    FairWaiter &w = report.waiters[i];
                    const RedisValue score = deadlines->value(i);
                    w.deadlineMs = score.isNil() ? -1 : score.bytes().toLongLong();
                    w.stale = w.deadlineMs >= 0 && w.deadlineMs <= now;
                    w.subscribers = (plain ? int(plainCounts->value.at(2 * i + 1).toInteger()) : 0)
                        + (shard && !shardUnknown ? int(shardCounts.value.at(2 * i + 1).toInteger()) : 0);
                }
                done(report);
            };
            if (shard) {
                if (plain)
                    self->m_connection->command(QList<QByteArray> { "PUBSUB", "NUMSUB" } + channels,
                        [plainCounts](const RedisResult &r) { *plainCounts = r; });
                self->m_connection->command(QList<QByteArray> { "PUBSUB", "SHARDNUMSUB" } + channels, finish);
            } else {
                self->m_connection->command(QList<QByteArray> { "PUBSUB", "NUMSUB" } + channels,
                    [plainCounts, finish](const RedisResult &r) mutable {
                        *plainCounts = r;
                        finish(RedisResult());
                    });
            }
            self->m_connection->uncork();
        });
}

void LockClient::repairFairQueue(const QByteArray &name, bool dryRun, Callback<FairQueueReport> done)
{
    if (!dryRun) {
        if (const RedisError error = checkWrite("repair-queue", name)) {
            FairQueueReport report;
            report.name = name;
            report.error = error;
            QMetaObject::invokeMethod(
                this, [done, report] { done(report); }, Qt::QueuedConnection);
            return;
        }
    }
    QPointer<LockClient> self(this);
    inspectFairQueue(name, [self, dryRun, done](const FairQueueReport &found) {
        if (!self)
            return;
        QList<QByteArray> args { self->publishCommand() };
        for (const FairWaiter &w : found.waiters)
            if (w.orphaned())
                args << w.owner;
        if (dryRun || found.error.isError() || args.size() == 1) {
            done(found);
            return;
        }
        const QByteArray &name = found.name;
        self->m_connection->eval(FairLockScripts::removeWaiters(),
            { name, LockNames::fairQueue(name), LockNames::fairTimeouts(name), LockNames::lockChannel(name) }, args,
            [found, done](const RedisResult &r) {
                FairQueueReport report = found;
                if (!r.ok())
                    report.error = r.error;
                else
                    report.removed = int(r.value.toInteger());
                done(report);
            });
    });
}

} // namespace LockScope

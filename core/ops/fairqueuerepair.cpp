#include "ops/fairqueuerepair.h"

#include "redis/bytesformat.h"

#include <QJsonArray>

#include "kinds/fair/fairlockscripts.h"
#include "kinds/locknames.h"
#include "lock/lockclient.h"
#include "redis/redisrouter.h"
#include "redis/replyjoin.h"

#include <QDateTime>
#include <QPointer>
#include <QTimer>

#include <algorithm>
#include <memory>

namespace LockScope {

namespace {
// One read of the queue: who is queued, their deadlines, and how many connections listen on each one's channel.
// Listeners are counted in both pub/sub namespaces whatever this client's publish mode: a waiter of a sharded fleet
// listens on its shard channel, one of a plain fleet on the plain one, and either is alive.
void readFairQueue(RedisCommander *connection, const QByteArray &name, std::function<void(FairQueueReport)> done)
{
    auto held = std::make_shared<RedisResult>();
    connection->command({ "EXISTS", name }, [held](const RedisResult &r) { *held = r; });
    connection->command({ "LRANGE", LockNames::fairQueue(name), "0", "-1" },
        [connection, name, held, done](const RedisResult &members) {
            FairQueueReport report;
            report.name = name;
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
            QList<QByteArray> channels;
            const qsizetype count = members.value.size();
            for (const RedisValue &m : members.value.elements()) {
                report.waiters.append({ m.bytes() });
                channels << LockNames::fairChannel(name, m.bytes());
            }
            auto deadlines = std::make_shared<QList<RedisResult>>(count);
            auto plain = std::make_shared<RedisResult>(), shard = std::make_shared<RedisResult>();
            auto join = ReplyJoin::create([report, deadlines, plain, shard, done](const RedisError &lost) mutable {
                const qsizetype size = 2 * report.waiters.size();
                if (lost.isError())
                    report.error = lost;
                else if (!plain->ok())
                    report.error = plain->error;
                else if (plain->value.size() != size)
                    report.error
                        = RedisError(RedisError::Kind::Protocol, QStringLiteral("unexpected PUBSUB NUMSUB reply"));
                // A server without sharded pub/sub (before Redis 7) has nobody listening there: 0, not a failure.
                // Being denied the count is a failure: a live waiter would look dead.
                else if (shard->error.kind() == RedisError::Kind::Permission)
                    report.error = shard->error;
                else if (shard->ok() && shard->value.size() != size)
                    report.error
                        = RedisError(RedisError::Kind::Protocol, QStringLiteral("unexpected PUBSUB SHARDNUMSUB reply"));
                if (report.error.isError()) {
                    done(report);
                    return;
                }
                const qint64 now = QDateTime::currentMSecsSinceEpoch();
                for (int i = 0; i < report.waiters.size(); ++i) {
                    FairWaiter &w = report.waiters[i];
                    const RedisValue score = deadlines->at(i).value;
                    w.deadlineMs = score.isNil() || !deadlines->at(i).ok() ? -1 : score.bytes().toLongLong();
                    w.stale = w.deadlineMs >= 0 && w.deadlineMs <= now;
                    w.subscribers = int(plain->value.at(2 * i + 1).toInteger())
                        + (shard->ok() ? int(shard->value.at(2 * i + 1).toInteger()) : 0);
                }
                done(report);
            });
            connection->cork();
            for (int i = 0; i < count; ++i)
                connection->command({ "ZSCORE", LockNames::fairTimeouts(name), members.value.at(i).bytes() },
                    join->track([deadlines, i](const RedisResult &r) { (*deadlines)[i] = r; }));
            connection->command(QList<QByteArray> { "PUBSUB", "NUMSUB" } + channels,
                join->track([plain](const RedisResult &r) { *plain = r; }));
            connection->command(QList<QByteArray> { "PUBSUB", "SHARDNUMSUB" } + channels,
                join->track([shard](const RedisResult &r) { *shard = r; }));
            connection->uncork();
            join->seal(connection);
        });
}

// Silent: nobody listened at either read. Waiters are reported as the second read found them (its order, its
// deadlines); one queued only since the first read had a single read and is not judged.
FairQueueReport judge(const FairQueueReport &first, FairQueueReport second)
{
    for (FairWaiter &w : second.waiters) {
        if (w.subscribers != 0)
            continue;
        for (const FairWaiter &before : first.waiters)
            if (before.owner == w.owner)
                w.silent = before.subscribers == 0;
    }
    return second;
}
// A refusal before anything is sent still answers later, as every LockClient callback does.
void refuseLater(QObject *context, const QByteArray &name, const RedisError &error,
    const std::function<void(const FairQueueReport &)> &done)
{
    FairQueueReport report;
    report.name = name;
    report.error = error;
    QMetaObject::invokeMethod(
        context, [done, report] { done(report); }, Qt::QueuedConnection);
}

void removeOrphanedWaiters(RedisCommander *connection, const FairQueueReport &found, const QList<QByteArray> &args,
    std::function<void(const FairQueueReport &)> done)
{
    const QByteArray &name = found.name;
    connection->eval(FairLockScripts::removeWaiters(),
        { name, LockNames::fairQueue(name), LockNames::fairTimeouts(name), LockNames::lockChannel(name) }, args,
        [found, done](const RedisResult &r) {
            FairQueueReport report = found;
            if (!r.ok())
                report.error = r.error;
            else
                report.removed = int(r.value.toInteger());
            done(report);
        });
}

// repairFairQueue() once its target passed checkTarget().
void repairCheckedQueue(QPointer<LockClient> client, const QByteArray &name, bool dryRun,
    std::function<void(const FairQueueReport &)> done, int recheckMs)
{
    Ops::inspectFairQueue(
        client, name,
        [client, dryRun, done](const FairQueueReport &found) {
            if (!client)
                return;
            QList<QByteArray> args { client->publishCommand() };
            for (const FairWaiter &w : found.waiters)
                if (w.orphaned())
                    args << w.owner;
            if (dryRun || found.error.isError() || args.size() == 1) {
                done(found);
                return;
            }
            // The removal wakes the new head with the publish mode's command: on a server without sharded pub/sub
            // an explicit "sharded" must refuse before the script removes anyone, not fail after it did.
            client->publishing()->whenKnown([client, found, done, args]() mutable {
                if (!client)
                    return;
                if (const RedisError refusal = client->publishing()->refusal()) {
                    FairQueueReport report = found;
                    report.error = refusal;
                    done(report);
                    return;
                }
                args[0] = client->publishCommand();
                removeOrphanedWaiters(client->connection(), found, args, done);
            });
        },
        recheckMs);
}
} // namespace

namespace Ops {

void inspectFairQueue(
    LockClient *client, const QByteArray &name, std::function<void(const FairQueueReport &)> done, int recheckMs)
{
    if (const RedisError error = client->validateName(name)) {
        refuseLater(client, name, error, done);
        return;
    }
    const int interval = recheckMs >= 0 ? recheckMs : client->options().fairListenerRecheckMs;
    QPointer<LockClient> self(client);
    readFairQueue(client->connection(), name, [self, name, interval, done](const FairQueueReport &first) {
        if (!self)
            return;
        // A stale waiter goes at once, as Redisson's own purge would take it; a listening one stays. Only a waiter
        // with nobody listening needs the second look: a Java waiter queues first and subscribes a moment later.
        const bool doubt = std::any_of(first.waiters.cbegin(), first.waiters.cend(),
            [](const FairWaiter &w) { return !w.stale && w.subscribers == 0; });
        if (first.error.isError() || !doubt) {
            done(first);
            return;
        }
        QTimer::singleShot(interval, self, [self, name, first, done] {
            readFairQueue(self->connection(), name, [self, first, done](const FairQueueReport &second) {
                if (self)
                    done(second.error.isError() ? second : judge(first, second));
            });
        });
    });
}

void repairFairQueue(LockClient *client, const QByteArray &name, bool dryRun,
    std::function<void(const FairQueueReport &)> done, int recheckMs)
{
    if (!dryRun) {
        if (const RedisError error = client->checkWrite("repair-queue", name)) {
            refuseLater(client, name, error, done);
            return;
        }
    }
    QPointer<LockClient> self(client);
    // Only a name listed as a fair lock (or as the reentrant lock an idle one looks like) has its queue looked at
    // for repair, a dry run included: the same judgement as every write by name.
    client->checkTarget(
        name, LockAction::RepairQueue, [self, name, dryRun, done, recheckMs](const RedisError &refusal) {
            if (!self)
                return;
            if (refusal) {
                refuseLater(self, name, refusal, done);
                return;
            }
            repairCheckedQueue(self, name, dryRun, done, recheckMs);
        });
}

void repairQueue(LockClient *client, const QString &url, const QByteArray &name,
    std::function<void(const RepairQueueDone &)> done, int recheckMs)
{
    const QByteArray clientId = client->clientId();
    repairFairQueue(
        client, name, false,
        [url, clientId, done](const FairQueueReport &r) {
            RepairQueueDone d;
            d.report = r;
            QJsonArray removed;
            for (const FairWaiter &w : r.waiters)
                if (w.orphaned())
                    removed.append(jsonText(w.owner));
            // Nothing dead: a repair that had nothing to do wrote nothing, and leaves no record.
            d.audited = r.error.isError() || !removed.isEmpty();
            d.record = AuditRecord(QStringLiteral("repair-queue"), url, r.name, clientId);
            d.record.insert(QStringLiteral("removed"), removed);
            if (r.error.isError())
                d.record.setError(r.error);
            done(d);
        },
        recheckMs);
}

} // namespace Ops

} // namespace LockScope

#include "lock/lockclient.h"

#include "kinds/acquirecheck.h"
#include "kinds/locklayouts.h"
#include "kinds/locknames.h"
#include "lock/lockclientinternal.h"
#include "lock/lockwaiters.h"
#include "lock/lockwatchdog.h"
#include "lock/replicasync.h"
#include "redis/redisrouter.h"
#include "redis/routedsubscriber.h"
#include "redis/slotmap.h"

#ifdef Q_OS_LINUX
#include <sys/syscall.h>
#include <unistd.h>
#endif
#include <QDateTime>
#include <QThread>
#include <QTimer>

namespace LockScope {

using LockClientInternal::cleanScriptError;
using LockClientInternal::later;

LockClient::LockClient(ConnectionOptions connection, LockClientOptions options, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
{
    if (m_options.clientId.isEmpty())
        m_options.clientId = LockNames::newClientId();
    // Reads from replicas are for the monitor: a lock client's answers must be the master's.
    connection.replicaReads = false;
    m_connection = new RedisRouter(connection, this);
    // The subscriber never writes data, so read-only mode does not restrict it.
    m_subscriber = new RoutedSubscriber(m_connection, this);
    m_watchdog = new LockWatchdog(m_connection, m_options, this);
    m_waiters = new LockWaiters(this, m_subscriber);
    m_replicas = new ReplicaSync(m_connection, connection.replicaSyncTimeoutMs, connection.checkSyncedReplicas, this);
    connect(m_watchdog, &LockWatchdog::renewed, this, &LockClient::holdRenewed);
    connect(m_watchdog, &LockWatchdog::lost, this, &LockClient::holdLost);
    connect(m_watchdog, &LockWatchdog::renewalFailed, this, &LockClient::renewalFailed);
    m_publishing = new PublishModeResolver(m_connection, this);
    connect(m_publishing, &PublishModeResolver::resolved, this, &LockClient::publishModeResolved);
    connect(m_publishing, &PublishModeResolver::notice, this, &LockClient::publishNotice);
    m_connection->open();
}

LockClient::~LockClient()
{
    // Waiters get their "shut down" answer while the connection objects still exist.
    delete m_waiters;
    m_waiters = nullptr;
}

RedisSubscriptions *LockClient::subscriber() const
{
    return m_subscriber;
}

QByteArray LockClient::currentThreadToken()
{
#ifdef Q_OS_LINUX
    return QByteArray::number(qint64(syscall(SYS_gettid)));
#else
    return QByteArray::number(quintptr(QThread::currentThreadId()));
#endif
}

RedisError LockClient::checkWrite(const char *action, const QByteArray &name) const
{
    if (m_connection->options().readOnly)
        return RedisError(RedisError::Kind::ReadOnly, tr("%1 refused: read-only mode").arg(QLatin1String(action)));
    return validateName(name);
}

RedisError LockClient::validateName(const QByteArray &name) const
{
    if (name.isEmpty())
        return RedisError(RedisError::Kind::InvalidArgument, tr("the lock name is empty"));
    if (name.size() > m_options.maxNameBytes)
        return RedisError(RedisError::Kind::InvalidArgument,
            tr("the lock name is %1 bytes long; the limit is %2 bytes").arg(name.size()).arg(m_options.maxNameBytes));
    return {};
}

void LockClient::acquire(AcquireRequest request, Callback<AcquireResult> done)
{
    if (request.token.isEmpty())
        request.token = currentThreadToken();
    const LockLayout &layout = LockLayouts::forMode(request.kind);
    if (request.readCount) {
        // The count a hold of a reentrant layout has now says whether this was a reentry; the others hold one level.
        QPointer<LockClient> self(this);
        done = [self, &layout, done](AcquireResult r) {
            if (!r.acquired || !layout.capabilities().reentrant || !self) {
                r.count = r.acquired ? 1 : 0;
                done(r);
                return;
            }
            self->m_connection->command({ "HGET", r.name, r.owner }, [r, done](const RedisResult &count) mutable {
                r.count = count.value.toInteger();
                done(r);
            });
        };
    }
    const QByteArray owner = layout.lockActions()->ownerField(request.kind, ownerField(request.token));
    if (const RedisError error = checkWrite("acquire", request.name)) {
        AcquireResult r;
        r.error = error;
        r.name = request.name;
        r.owner = owner;
        later(this, done, r);
        return;
    }
    m_cancelled.remove({ request.name, owner });
    if (!m_publishing->serverChecked() || m_publishing->refusal()) {
        // An explicit sharded or both mode is checked against the server first: a hold whose release could not run
        // is not taken.
        QPointer<LockClient> self(this);
        m_publishing->whenKnown([self, request, owner, done] {
            if (!self)
                return;
            if (const RedisError refusal = self->m_publishing->refusal()) {
                AcquireResult r;
                r.error = refusal;
                r.name = request.name;
                r.owner = owner;
                done(r);
                return;
            }
            self->acquireNow(request, owner, done);
        });
        return;
    }
    acquireNow(request, owner, std::move(done));
}

void LockClient::acquireNow(const AcquireRequest &request, const QByteArray &owner, Callback<AcquireResult> done)
{
    QPointer<LockClient> self(this);
    const QPair<QByteArray, QByteArray> key { request.name, owner };
    runAcquire(request, owner, [self, request, owner, key, done](const AcquireResult &first) {
        if (!self)
            return;
        if (self->m_cancelled.remove(key)) {
            AcquireResult r = first;
            if (r.acquired)
                self->release(
                    r.name, r.owner, [](const ReleaseResult &) {}, request.kind);
            else if (request.waitMs != 0)
                self->giveUpWait(request, owner);
            r.acquired = false;
            r.cancelled = true;
            done(r);
            return;
        }
        if (first.acquired || first.error.isError() || request.waitMs == 0) {
            done(first);
            return;
        }
        // A waiter that ends without the lock undoes what waiting left in Redis (a fair waiter's queue entry).
        auto finished = [self, request, owner, done](const AcquireResult &r) {
            if (self && !r.acquired)
                self->giveUpWait(request, owner);
            done(r);
        };
        self->m_publishing->whenKnown([self, request, owner, first, finished] {
            if (self)
                self->m_waiters->wait(request, owner,
                    LockLayouts::actionsFor(request.kind).waitChannel(request.name, owner), first, finished);
        });
    });
}

void LockClient::giveUpWait(const AcquireRequest &request, const QByteArray &owner)
{
    const std::optional<ScriptCall> call
        = LockLayouts::actionsFor(request.kind).giveUp(request.name, owner, fairWait(request.waitMs));
    if (call)
        m_connection->eval(*call->script, call->keys, call->args, {});
}

qint64 LockClient::fairWait(qint64 waitMs) const
{
    return waitMs > 0 ? waitMs : m_options.fairWaitTimeoutMs;
}

void LockClient::cancelAcquire(const QByteArray &name, const QByteArray &owner)
{
    // The first try may still be on the wire (it is not a waiter yet); it checks this set when it answers.
    m_cancelled.insert({ name, owner });
    // The caller names no kind: wherever the owner waits (a channel, or polling: the empty one), it stops waiting.
    QSet<QByteArray> channels;
    for (const LockLayout *layout : LockLayouts::all())
        if (const LockActions *actions = layout->lockActions())
            channels.insert(actions->waitChannel(name, owner));
    for (const QByteArray &channel : std::as_const(channels))
        m_waiters->cancel(channel, owner);
}

void LockClient::runAcquire(const AcquireRequest &request, const QByteArray &owner, Callback<AcquireResult> done)
{
    QPointer<LockClient> self(this);
    // What a failover could not keep is undone as one level of an unlock, as Redisson runs it.
    done = m_replicas->checkedAcquire(
        std::move(done), [self, kind = request.kind](const AcquireResult &held, Callback<ReleaseResult> undone) {
            if (!self)
                return;
            self->release(
                held.name, held.owner,
                [self, held, undone](const ReleaseResult &undo) {
                    // Not renewed any more, so a hold the undo left behind ends with its lease.
                    if (undo.error.isError() && self)
                        self->m_watchdog->released(held.name, held.owner, false);
                    undone(undo);
                },
                kind);
        });
    const bool watchdog = request.leaseMs <= 0;
    const qint64 watchdogMs = request.watchdogTimeoutMs > 0 ? request.watchdogTimeoutMs : m_options.watchdogTimeoutMs;
    qint64 lease = watchdog ? watchdogMs : request.leaseMs;
    // A level re-entered with a short lease on a hold the watchdog renews keeps the watchdog's lease: its renewal
    // extends to the watchdog timeout every third of it, and a shorter TTL would run out between two renewals while
    // the holder still works under the lock.
    if (!watchdog && m_watchdog->isRenewing(request.name, owner))
        lease = qMax<qint64>(lease, m_options.watchdogTimeoutMs);
    const LockLayout &layout = LockLayouts::forMode(request.kind);
    AcquireCall call;
    call.name = request.name;
    call.owner = owner;
    call.leaseMs = lease;
    call.willWait = request.waitMs != 0;
    call.queueWaitMs = fairWait(request.waitMs);
    call.nowMs = QDateTime::currentMSecsSinceEpoch();
    const LockActions &actions = *layout.lockActions();
    ScriptCall script = actions.acquire(request.kind, call);
    const QByteArray readTimeouts = actions.renewalPrefix(request.kind, request.name, owner);
    // A name with a stray '{' has its wake-up channel in another cluster slot
    // (docs/protocol/README.md#key-naming-and-hash-tags): its release could never run there. Named here (the script
    // never reads it), the channel makes the router refuse the acquire with CROSSSLOT before anything is written,
    // instead of leaving a hold that only its lease can end. Every other name keeps Redisson's own keys: its channel
    // shares its slot. A layout that wakes nobody has no channel to keep with it.
    if (const QByteArray channel = layout.recogniser().releaseChannel(request.name);
        !channel.isEmpty() && keySlot(channel) != keySlot(request.name))
        script.keys << channel;
    m_connection->eval(*script.script, script.keys, script.args,
        [self, request, owner, lease, watchdog, watchdogMs, readTimeouts, &actions, done](const RedisResult &reply) {
            if (!self)
                return;
            AcquireResult r;
            r.name = request.name;
            r.owner = owner;
            r.attempts = 1;
            if (!reply.ok()) {
                r.error = AcquireCheck::explain(
                    cleanScriptError(reply.error), request.name, LockLayouts::wantedText(request.kind));
                if (r.error.code() == "WRONGTYPE") {
                    self->explainWrongType(request.name, actions, [r, done](const RedisError &e) mutable {
                        r.error = e;
                        done(r);
                    });
                    return;
                }
            } else if (!actions.decodeAcquire(reply.value, &r)) {
                r.error = RedisError(
                    RedisError::Kind::Protocol, tr("unexpected acquire reply %1").arg(reply.value.toDebugString()));
            } else if (r.acquired) {
                r.leaseMs = lease;
                r.watchdog = watchdog;
                self->m_watchdog->track(request.name, owner, lease, watchdog, watchdog ? watchdogMs : 0, readTimeouts,
                    &actions.renewal(), request.kind);
            }
            done(r);
        });
}

void LockClient::query(const QByteArray &name, QList<QByteArray> argv, Callback<QueryResult> done)
{
    if (const RedisError error = validateName(name)) {
        later(this, done, QueryResult { error, 0 });
        return;
    }
    m_connection->command(std::move(argv), [done](const RedisResult &reply) {
        QueryResult r;
        if (!reply.ok())
            r.error = reply.error;
        else if (reply.value.isNil())
            r.value = 0;
        else {
            bool ok = false;
            r.value = reply.value.toInteger(&ok);
            if (!ok)
                r.error = RedisError(RedisError::Kind::Protocol,
                    QStringLiteral("expected a number, got %1").arg(reply.value.toDebugString()));
        }
        done(r);
    });
}

void LockClient::isLocked(const QByteArray &name, Callback<QueryResult> done)
{
    query(name, { "EXISTS", name }, std::move(done));
}

void LockClient::holdCount(const QByteArray &name, const QByteArray &owner, Callback<QueryResult> done)
{
    query(name, { "HGET", name, owner }, std::move(done));
}

void LockClient::remainingTtl(const QByteArray &name, Callback<QueryResult> done)
{
    query(name, { "PTTL", name }, std::move(done));
}

void LockClient::fencingToken(const QByteArray &name, Callback<QueryResult> done)
{
    query(name, { "GET", LockNames::fencingToken(name) }, std::move(done));
}

void LockClient::isHeldBy(const QByteArray &name, const QByteArray &owner, Callback<QueryResult> done)
{
    query(name, { "HEXISTS", name, owner }, std::move(done));
}

bool LockClient::setWatchdogEnabled(const QByteArray &name, const QByteArray &owner, bool enabled)
{
    return m_watchdog->setRenewal(name, owner, enabled);
}

bool LockClient::isWatchdogEnabled(const QByteArray &name, const QByteArray &owner) const
{
    return m_watchdog->isRenewing(name, owner);
}

void LockClient::checkHoldsNow()
{
    m_watchdog->renewNow();
}

QList<HoldEvent> LockClient::holds() const
{
    return m_watchdog->holds();
}

bool LockClient::tracksHold(const QByteArray &name, const QByteArray &owner) const
{
    return m_watchdog->isTracked(name, owner);
}

} // namespace LockScope

#include "lockclient.h"

#include "acquirecheck.h"
#include "fairlockscripts.h"
#include "locknames.h"
#include "lockscripts.h"
#include "lockwaiters.h"
#include "lockwatchdog.h"
#include "redisrouter.h"
#include "replicasync.h"
#include "routedsubscriber.h"
#include "rwlockscripts.h"
#include "slotmap.h"

#ifdef Q_OS_LINUX
#include <sys/syscall.h>
#include <unistd.h>
#endif
#include <QDateTime>
#include <QThread>
#include <QTimer>

namespace LockScope {

namespace {
template <typename T> void later(QObject *context, const std::function<void(const T &)> &done, T value)
{
    QMetaObject::invokeMethod(
        context, [done, value = std::move(value)] { done(value); }, Qt::QueuedConnection);
}

// Script errors arrive as "WRONGTYPE ... script: <sha>, on @user_script:1."; people need only the first part.
RedisError cleanScriptError(RedisError error)
{
    QString message = error.message();
    const int cut = message.indexOf(QLatin1String(" script: "));
    if (cut > 0)
        message.truncate(cut);
    return RedisError(error.kind(), message, error.code());
}
} // namespace

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
    m_replicas = new ReplicaSync(m_connection, connection.replicaSyncTimeoutMs, this);
    connect(m_watchdog, &LockWatchdog::renewed, this, &LockClient::holdRenewed);
    connect(m_watchdog, &LockWatchdog::lost, this, &LockClient::holdLost);
    connect(m_watchdog, &LockWatchdog::renewalFailed, this, &LockClient::renewalFailed);
    resolvePublishMode();
    m_connection->open();
}

LockClient::~LockClient()
{
    // Waiters get their "shut down" answer while the connection objects still exist.
    delete m_waiters;
    m_waiters = nullptr;
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
    const QByteArray owner = ownerField(request.token) + (request.kind == LockKind::Write ? ":write" : "");
    if (const RedisError error = checkWrite("acquire", request.name)) {
        AcquireResult r;
        r.error = error;
        r.name = request.name;
        r.owner = owner;
        later(this, done, r);
        return;
    }
    m_cancelled.remove({ request.name, owner });
    if (m_shardCheck != ShardCheck::Done || m_publishRefusal) {
        // An explicit sharded or both mode is checked against the server first: a hold whose release could not run
        // is not taken.
        QPointer<LockClient> self(this);
        whenPublishKnown([self, request, owner, done] {
            if (!self)
                return;
            if (const RedisError refusal = self->publishRefusal()) {
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
            else if (request.kind == LockKind::Fair && request.waitMs != 0)
                self->giveUpFairWait(request.name, owner, request.waitMs);
            r.acquired = false;
            r.cancelled = true;
            done(r);
            return;
        }
        if (first.acquired || first.error.isError() || request.waitMs == 0) {
            done(first);
            return;
        }
        auto finished = done;
        if (request.kind == LockKind::Fair) {
            // A fair waiter that ends without the lock takes its entry out of the queue.
            finished = [self, request, owner, done](const AcquireResult &r) {
                if (self && !r.acquired)
                    self->giveUpFairWait(request.name, owner, request.waitMs);
                done(r);
            };
        }
        self->whenPublishKnown([self, request, owner, first, finished] {
            if (self)
                self->m_waiters->wait(request, owner, channelFor(request.kind, request.name, owner), first, finished);
        });
    });
}

QByteArray LockClient::channelFor(LockKind kind, const QByteArray &name, const QByteArray &owner)
{
    if (kind == LockKind::Fair)
        return LockNames::fairChannel(name, owner); // each fair waiter hears only its own turn
    if (kind == LockKind::Read || kind == LockKind::Write)
        return LockNames::rwChannel(name);
    return LockNames::lockChannel(name);
}

void LockClient::giveUpFairWait(const QByteArray &name, const QByteArray &owner, qint64 waitMs)
{
    // Leaving the queue shifts everyone behind by one wait; otherwise a dead entry blocks them until its deadline.
    m_connection->eval(FairLockScripts::giveUp(), { LockNames::fairQueue(name), LockNames::fairTimeouts(name) },
        { owner, QByteArray::number(fairWait(waitMs)) }, {});
}

qint64 LockClient::fairWait(qint64 waitMs) const
{
    return waitMs > 0 ? waitMs : m_options.fairWaitTimeoutMs;
}

void LockClient::cancelAcquire(const QByteArray &name, const QByteArray &owner)
{
    // The first try may still be on the wire (it is not a waiter yet); it checks this set when it answers.
    m_cancelled.insert({ name, owner });
    m_waiters->cancel(LockNames::lockChannel(name), owner);
    m_waiters->cancel(LockNames::rwChannel(name), owner);
    m_waiters->cancel(LockNames::fairChannel(name, owner), owner);
}

void LockClient::runAcquire(const AcquireRequest &request, const QByteArray &owner, Callback<AcquireResult> done)
{
    done = replicaCheckedAcquire(request.kind, std::move(done));
    const bool watchdog = request.leaseMs <= 0;
    qint64 lease = watchdog ? m_options.watchdogTimeoutMs : request.leaseMs;
    // A level re-entered with a short lease on a hold the watchdog renews keeps the watchdog's lease: its renewal
    // extends to the watchdog timeout every third of it, and a shorter TTL would run out between two renewals while
    // the holder still works under the lock.
    if (!watchdog && m_watchdog->isRenewing(request.name, owner))
        lease = qMax<qint64>(lease, m_options.watchdogTimeoutMs);
    QPointer<LockClient> self(this);
    const QByteArray leaseArg = QByteArray::number(lease);
    const RedisScript *script = &LockScripts::acquire();
    QList<QByteArray> keys { request.name };
    QList<QByteArray> args { leaseArg, owner };
    // Every acquire script also reads the aux keys, to refuse a name that holds another kind of lock.
    const QList<QByteArray> aux = AcquireCheck::auxKeys(request.name);
    QByteArray readTimeouts;
    switch (request.kind) {
    case LockKind::Reentrant:
        args << aux;
        break;
    case LockKind::Fenced:
        script = &LockScripts::acquireFenced();
        keys << aux.at(0);
        args << aux.mid(1);
        break;
    case LockKind::Read:
        script = &RwLockScripts::acquireRead();
        readTimeouts = LockNames::rwTimeoutPrefix(request.name, owner);
        keys << readTimeouts;
        args << owner + ":write" << aux;
        break;
    case LockKind::Write:
        script = &RwLockScripts::acquireWrite();
        args << aux;
        break;
    case LockKind::Fair:
        // Only a caller that is prepared to wait joins the queue; deadlines use this client's wall clock.
        script = request.waitMs == 0 ? &FairLockScripts::tryAcquire() : &FairLockScripts::acquire();
        keys << aux.at(1) << aux.at(2);
        args << QByteArray::number(fairWait(request.waitMs)) << QByteArray::number(QDateTime::currentMSecsSinceEpoch())
             << aux.at(0);
        break;
    }
    // A name with a stray '{' has its wake-up channel in another cluster slot (protocol §1): its release could never
    // run there. Named here (the script never reads it), the channel makes the router refuse the acquire with
    // CROSSSLOT before anything is written, instead of leaving a hold that only its lease can end. Every other name
    // keeps Redisson's own keys: its channel shares its slot.
    if (const QByteArray channel = LockNames::lockChannel(request.name); keySlot(channel) != keySlot(request.name))
        keys << channel;
    m_connection->eval(
        *script, keys, args, [self, request, owner, lease, watchdog, readTimeouts, done](const RedisResult &reply) {
            if (!self)
                return;
            AcquireResult r;
            r.name = request.name;
            r.owner = owner;
            r.attempts = 1;
            if (!reply.ok()) {
                r.error = AcquireCheck::explain(
                    cleanScriptError(reply.error), request.name, AcquireCheck::wantedText(request.kind));
                if (r.error.code() == "WRONGTYPE") {
                    self->explainWrongType(request.name, [r, done](const RedisError &e) mutable {
                        r.error = e;
                        done(r);
                    });
                    return;
                }
            } else if (!AcquireCheck::decode(reply.value, &r)) {
                r.error = RedisError(
                    RedisError::Kind::Protocol, tr("unexpected acquire reply %1").arg(reply.value.toDebugString()));
            } else if (r.acquired) {
                r.leaseMs = lease;
                r.watchdog = watchdog;
                self->m_watchdog->track(request.name, owner, lease, watchdog, readTimeouts);
            }
            done(r);
        });
}

void LockClient::release(const QByteArray &name, const QByteArray &owner, Callback<ReleaseResult> done, LockKind kind)
{
    if (const RedisError error = checkWrite("release", name)) {
        ReleaseResult r;
        r.error = error;
        r.name = name;
        r.owner = owner;
        later(this, done, r);
        return;
    }
    // One request id for every retry of this unlock, so a retry after a lost reply is answered from the latch.
    QPointer<LockClient> self(this);
    whenPublishKnown([self, name, owner, kind, done = replicaSyncedRelease(std::move(done))] {
        if (!self)
            return;
        if (const RedisError refusal = self->publishRefusal()) {
            ReleaseResult r;
            r.error = refusal;
            r.name = name;
            r.owner = owner;
            done(r);
            return;
        }
        self->releaseAttempt(name, owner, kind, LockNames::newRequestId(), 1, done);
    });
}

void LockClient::releaseAttempt(const QByteArray &name, const QByteArray &owner, LockKind kind,
    const QByteArray &requestId, int attempt, Callback<ReleaseResult> done)
{
    const QByteArray latch = LockNames::unlockLatch(name, requestId);
    const QByteArray lease = QByteArray::number(m_watchdog->leaseOf(name, owner));
    const QByteArray latchTtl = QByteArray::number(m_options.latchTtlMs);
    const QByteArray publish = publishCommand();
    const RedisScript *script = &LockScripts::release();
    QList<QByteArray> keys { name, LockNames::lockChannel(name), latch };
    QList<QByteArray> args { "0", lease, owner, publish, latchTtl };
    if (kind == LockKind::Read) {
        script = &RwLockScripts::releaseRead();
        keys = { name, LockNames::rwChannel(name), LockNames::rwTimeoutPrefix(name, owner),
            LockNames::rwKeyPrefix(name), latch };
        args = { "0", owner, publish, latchTtl };
    } else if (kind == LockKind::Write) {
        script = &RwLockScripts::releaseWrite();
        keys = { name, LockNames::rwChannel(name), latch };
        args = { "1", lease, owner, publish, latchTtl };
    } else if (kind == LockKind::Fair) {
        script = &FairLockScripts::release();
        keys = { name, LockNames::fairQueue(name), LockNames::fairTimeouts(name), LockNames::lockChannel(name), latch };
        args = { "0", lease, owner, QByteArray::number(QDateTime::currentMSecsSinceEpoch()), publish, latchTtl };
    }
    QPointer<LockClient> self(this);
    m_connection->eval(
        *script, keys, args, [self, name, owner, kind, requestId, attempt, latch, done](const RedisResult &reply) {
            if (!self)
                return;
            ReleaseResult r;
            r.name = name;
            r.owner = owner;
            const auto failure = reply.error.kind();
            if ((failure == RedisError::Kind::Io || failure == RedisError::Kind::Timeout)
                && attempt < self->m_options.releaseAttempts) {
                QTimer::singleShot(
                    self->m_options.releaseRetryDelayMs, self, [self, name, owner, kind, requestId, attempt, done] {
                        self->releaseAttempt(name, owner, kind, requestId, attempt + 1, done);
                    });
                return;
            }
            if (!reply.ok()) {
                r.error = cleanScriptError(reply.error);
                if (r.error.message().startsWith(QLatin1String("WRONGTYPE"))) {
                    self->explainWrongType(name, [r, done](const RedisError &e) mutable {
                        r.error = e;
                        done(r);
                    });
                    return;
                }
                done(r);
                return;
            }
            if (reply.value.isNil()) {
                QByteArray client, token;
                if (!LockNames::splitOwner(owner, &client, &token))
                    token = owner;
                if (token.endsWith(":write"))
                    token.chop(6);
                r.outcome = ReleaseResult::Outcome::NotHeld;
                r.message = tr("attempt to unlock lock, not locked by current thread by node id: %1 thread-id: %2")
                                .arg(QString::fromUtf8(client.isEmpty() ? self->m_options.clientId : client),
                                    QString::fromUtf8(token));
                self->m_watchdog->released(name, owner, true);
            } else if (reply.value.toInteger() == 1) {
                r.outcome = ReleaseResult::Outcome::Released;
                self->m_watchdog->released(name, owner, true);
            } else {
                r.outcome = ReleaseResult::Outcome::StillHeld;
                self->m_watchdog->released(name, owner, false);
            }
            // The latch only matters while this call might be retried; it is done now. Nobody waits for the DEL,
            // so it travels with the next command instead of costing a write and a wake-up of its own.
            self->m_connection->commandDeferred({ "DEL", latch });
            done(r);
        });
}

void LockClient::forceRelease(
    const QByteArray &name, const QByteArray &expectOwner, Callback<ForceReleaseResult> done, LockKind kind)
{
    forceRelease(name, expectOwner.isEmpty() ? ForceGuard {} : ForceGuard::owner(expectOwner), std::move(done), kind);
}

void LockClient::forceRelease(
    const QByteArray &name, const ForceGuard &guard, Callback<ForceReleaseResult> done, LockKind kind)
{
    ForceReleaseResult r;
    r.name = name;
    if (const RedisError error = checkWrite("force-release", name)) {
        r.error = error;
        later(this, done, r);
        return;
    }
    QPointer<LockClient> self(this);
    whenPublishKnown([self, name, guard, done, kind] {
        if (!self)
            return;
        if (const RedisError refusal = self->publishRefusal()) {
            ForceReleaseResult r;
            r.name = name;
            r.error = refusal;
            done(r);
            return;
        }
        self->forceReleaseNow(name, guard, done, kind);
    });
}

void LockClient::forceReleaseNow(
    const QByteArray &name, const ForceGuard &guard, Callback<ForceReleaseResult> done, LockKind kind)
{
    ForceReleaseResult r;
    r.name = name;
    const QByteArray publish = publishCommand();
    const RedisScript *script = &LockScripts::forceRelease();
    QList<QByteArray> keys { name, LockNames::lockChannel(name) };
    QList<QByteArray> args { "0", publish };
    if (kind == LockKind::Read || kind == LockKind::Write) {
        // The read-write script publishes "0" or "1" by the lock's mode.
        script = &RwLockScripts::forceRelease();
        keys = { name, LockNames::rwChannel(name) };
        args = { publish };
    } else if (kind == LockKind::Fair) {
        script = &FairLockScripts::forceRelease();
        keys = { name, LockNames::fairQueue(name), LockNames::fairTimeouts(name), LockNames::lockChannel(name) };
        args = { "0", QByteArray::number(QDateTime::currentMSecsSinceEpoch()), publish };
    }
    args << guard.scriptArgs();
    QPointer<LockClient> self(this);
    m_connection->eval(*script, keys, args, [self, r, done](const RedisResult &reply) mutable {
        if (!self)
            return;
        if (!reply.ok()) {
            r.error = cleanScriptError(reply.error);
        } else {
            const qint64 outcome = reply.value.toInteger();
            r.deleted = outcome == 1;
            r.guardFailed = outcome == -1;
            if (r.deleted)
                self->m_watchdog->forget(r.name);
        }
        if (!r.guardFailed) {
            done(r);
            return;
        }
        // Say what changed: who holds it now (read after the refusal, so it may have moved on again).
        self->m_connection->command({ "HKEYS", r.name }, [r, done](const RedisResult &fields) mutable {
            for (const RedisValue &f : fields.value.elements())
                if (f.bytes() != "mode")
                    r.holdersNow << f.bytes();
            done(r);
        });
    });
}

void LockClient::explainWrongType(const QByteArray &name, std::function<void(const RedisError &)> done)
{
    // Only on the error path: the hot scripts leave the type check to Redis, so ask which type it is.
    m_connection->command({ "TYPE", name }, [done](const RedisResult &type) {
        const QString what
            = type.ok() ? QString::fromUtf8(type.value.bytes()) : QStringLiteral("value of another type");
        done(RedisError(
            RedisError::Kind::Reply, QStringLiteral("WRONGTYPE the lock name holds a %1, not a lock hash").arg(what)));
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

QList<HoldEvent> LockClient::holds() const
{
    return m_watchdog->holds();
}

} // namespace LockScope

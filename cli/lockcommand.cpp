#include "lockcommand.h"

#include "kinds/locklayouts.h"
#include "lock/lockclient.h"
#include "ops/inspect.h"
#include "redis/bytesformat.h"
#include "redis/redisconnection.h"
#include "redis/redisrouter.h"
#include "terminationwatcher.h"

#include <QJsonObject>
#include <QTimer>

namespace LockScope::Cli {

void LockCommand::start()
{
    m_name = lockName();
    const QString kind = m_parser.value(QStringLiteral("kind"));
    AcquireMode mode = LockLayouts::mode(LockMode::Reentrant);
    if (!kind.isEmpty() && !LockLayouts::modeById(kind, &mode)) {
        m_out.error(tr("lock kind \"%1\" is not supported; use one of: %2")
                        .arg(kind, LockLayouts::modeIds().join(QLatin1String(", "))));
        finish(ExitUsage);
        return;
    }
    m_kind = mode.kind;
    LockTimes times;
    if (!readLockTimes(m_parser, m_out, &times)) {
        finish(ExitUsage);
        return;
    }
    const qint64 lease = times.lease, wait = times.wait, hold = times.hold, watchdogTimeout = times.watchdogTimeout;
    m_client = makeClient(int(watchdogTimeout));
    m_owner
        = LockLayouts::actionsFor(m_kind).ownerField(m_kind, m_client->ownerField(LockClient::currentThreadToken()));
    connect(m_client, &LockClient::holdLost, this, [this](const HoldEvent &e) {
        if (!m_holding || e.name != m_name)
            return;
        m_holding = false;
        m_out.event(QStringLiteral("lost"), m_name, m_owner, 0, -2,
            tr("lost %1: the hold vanished before it was released (lease ran out or force-released)")
                .arg(escapeBytes(m_name, 200)));
        finish(ExitNotDone);
    });
    connect(m_client, &LockClient::holdRenewed, this, [this](const HoldEvent &e) {
        if (m_holding && e.name == m_name && m_out.json())
            m_out.event(QStringLiteral("renewed"), m_name, m_owner, 1, e.leaseMs, {});
    });

    auto *watcher = new TerminationWatcher(hold < 0, this);
    connect(watcher, &TerminationWatcher::terminationRequested, this, [this](const QString &reason, bool signal) {
        if (m_holding)
            releaseAndExit(reason);
        else if (!signal)
            // End of input says how long to hold, so it ends the hold once there is one; it does not cancel.
            m_endOfInput = true;
        else if (!m_releasing && !m_cancelling) {
            // A try may be on the wire: cancel, and let its answer (released again if it won) end the command.
            m_cancelling = true;
            m_out.error(tr("interrupted (%1) before the lock was acquired").arg(reason));
            m_client->cancelAcquire(m_name, m_owner);
        }
    });
    if (hold >= 0) {
        m_holdTimer = new QTimer(this);
        m_holdTimer->setSingleShot(true);
        m_holdTimer->setInterval(int(qMin<qint64>(hold, std::numeric_limits<int>::max())));
        connect(m_holdTimer, &QTimer::timeout, this, [this] { releaseAndExit(tr("--hold elapsed")); });
    }

    AcquireRequest request;
    request.name = m_name;
    request.leaseMs = lease;
    request.waitMs = wait;
    request.kind = m_kind;
    request.readCount = true; // "reentered" or "acquired"
    m_client->acquire(request, [this](const AcquireResult &r) { onAcquired(r); });
}

void LockCommand::onAcquired(const AcquireResult &r)
{
    if (m_finished)
        return;
    if (r.cancelled || m_cancelling) {
        // The client already gave back a lock that a try won after the interrupt; anything else won goes too.
        if (r.acquired)
            m_client->release(
                r.name, r.owner, [](const ReleaseResult &) {}, m_kind);
        finish(ExitNotDone);
        return;
    }
    if (r.error.isError()) {
        finish(m_out.fail(r.error));
        return;
    }
    if (!r.acquired) {
        reportNotAcquired(r);
        return;
    }
    m_holding = true;
    const qint64 lease = r.leaseMs;
    const bool watchdog = r.watchdog;
    const qint64 token = r.fencingToken;
    const qint64 n = r.count; // the acquire read it (AcquireRequest::readCount)
    {
        QJsonObject extra;
        QString human = tr("acquired %1 as %2 (lease %3 ms, %4)")
                            .arg(escapeBytes(m_name, 200), QString::fromUtf8(m_owner))
                            .arg(lease)
                            .arg(watchdog ? tr("watchdog renewing") : tr("fixed lease"));
        if (token >= 0) {
            extra.insert(QStringLiteral("token"), token);
            human += tr(", fencing token %1").arg(token);
        }
        m_out.event(
            n > 1 ? QStringLiteral("reentered") : QStringLiteral("acquired"), m_name, m_owner, n, lease, human, extra);
        if (m_holdTimer)
            m_holdTimer->start();
        else if (m_endOfInput)
            releaseAndExit(tr("end of standard input"));
    }
}

void LockCommand::reportNotAcquired(const AcquireResult &r)
{
    if (!r.holderNow.isEmpty()) {
        // The answer named the holder (a string lock's token): no read to make.
        m_out.error(tr("not acquired: %1 is held by token %2, ttl %3 ms")
                        .arg(escapeBytes(m_name, 200), escapeBytes(r.holderNow, 200))
                        .arg(r.ttlMs));
        finish(ExitNotDone);
        return;
    }
    Ops::inspect(
        m_client, m_name,
        [this](const LockNow &now) {
            m_out.error(tr("not acquired: %1").arg(now.error.isError() ? now.error.message() : describeHolders(now)));
            finish(ExitNotDone);
        },
        LockAction::Acquire);
}

void LockCommand::releaseAndExit(const QString &reason)
{
    if (m_releasing)
        return;
    m_releasing = true;
    m_holding = false;
    m_client->release(
        m_name, m_owner,
        [this, reason](const ReleaseResult &r) {
            if (r.error.isError()) {
                finish(m_out.fail(r.error));
                return;
            }
            if (r.outcome == ReleaseResult::Outcome::NotHeld) {
                m_out.event(QStringLiteral("lost"), m_name, m_owner, 0, -2, tr("lost: %1").arg(r.message));
                finish(ExitNotDone);
                return;
            }
            m_out.event(QStringLiteral("released"), m_name, m_owner, 0, -2,
                tr("released %1 (%2)").arg(escapeBytes(m_name, 200), reason));
            finish(ExitDone);
        },
        m_kind);
}

} // namespace LockScope::Cli

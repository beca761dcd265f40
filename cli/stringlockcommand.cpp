#include "stringlockcommand.h"

#include "lock/lockclient.h"
#include "lock/stringlockclient.h"
#include "redis/bytesformat.h"
#include "redis/redisrouter.h"
#include "terminationwatcher.h"

#include <QTimer>

namespace LockScope::Cli {

namespace {
// A string lock has no wake-up channel: a waiter tries again, as redlock and redis-semaphore do.
constexpr int retryIntervalMs = 100;
} // namespace

void StringLockCommand::start()
{
    m_name = positional(1).toUtf8();
    LockTimes times;
    if (!readLockTimes(m_parser, m_out, &times)) {
        finish(ExitUsage);
        return;
    }
    m_lease = times.lease;
    LockClient *client = makeClient();
    m_strings = new StringLockClient(
        client->connection(), times.watchdogTimeout > 0 ? int(times.watchdogTimeout) : 30000, this);
    m_waitDeadline = times.wait < 0 ? -1 : client->connection()->nowMs() + times.wait;
    connect(m_strings, &StringLockClient::lost, this, [this](const QByteArray &name, const QByteArray &token) {
        if (!m_holding || name != m_name || token != m_token)
            return;
        m_holding = false;
        m_out.event(QStringLiteral("lost"), m_name, m_token, 0, -2,
            tr("lost %1: its token changed or the key vanished before it was released (lease ran out, deleted or "
               "overwritten)")
                .arg(escapeBytes(m_name, 200)));
        finish(ExitNotDone);
    });
    connect(m_strings, &StringLockClient::renewed, this,
        [this](const QByteArray &name, const QByteArray &token, qint64 leaseMs) {
            if (m_holding && name == m_name && token == m_token && m_out.json())
                m_out.event(QStringLiteral("renewed"), m_name, m_token, 1, leaseMs, {});
        });
    auto *watcher = new TerminationWatcher(times.hold < 0, this);
    connect(watcher, &TerminationWatcher::terminationRequested, this, [this](const QString &reason, bool signal) {
        if (m_holding)
            releaseAndExit(reason);
        else if (!signal)
            m_endOfInput = true;
        else if (!m_releasing && !m_interrupted) {
            // A try on the wire that wins is given back when it answers.
            m_interrupted = true;
            m_out.error(tr("interrupted (%1) before the lock was acquired").arg(reason));
        }
    });
    if (times.hold >= 0) {
        m_holdTimer = new QTimer(this);
        m_holdTimer->setSingleShot(true);
        m_holdTimer->setInterval(int(qMin<qint64>(times.hold, std::numeric_limits<int>::max())));
        connect(m_holdTimer, &QTimer::timeout, this, [this] { releaseAndExit(tr("--hold elapsed")); });
    }
    tryOnce();
}

void StringLockCommand::tryOnce()
{
    m_strings->acquire(m_name, m_lease, [this](const StringLockResult &r) {
        if (m_finished)
            return;
        if (r.error.isError()) {
            finish(m_out.fail(r.error));
            return;
        }
        if (r.done && m_interrupted) {
            m_strings->release(m_name, r.token, [this](const StringLockResult &) { finish(ExitNotDone); });
            return;
        }
        if (m_interrupted) {
            finish(ExitNotDone);
            return;
        }
        if (!r.done) {
            const qint64 now = m_client ? m_client->connection()->nowMs() : 0;
            if (m_waitDeadline < 0 || now + retryIntervalMs <= m_waitDeadline) {
                QTimer::singleShot(retryIntervalMs, this, [this] { tryOnce(); });
                return;
            }
            m_out.error(r.tokenNow.isEmpty() ? tr("not acquired: %1 is not a string lock").arg(escapeBytes(m_name, 200))
                                             : tr("not acquired: %1 is held by token %2, ttl %3 ms")
                                                   .arg(escapeBytes(m_name, 200), escapeBytes(r.tokenNow, 200))
                                                   .arg(r.ttlMs));
            finish(ExitNotDone);
            return;
        }
        m_holding = true;
        m_token = r.token;
        m_out.event(QStringLiteral("acquired"), m_name, m_token, 1, r.ttlMs,
            tr("acquired %1 with token %2 (lease %3 ms, %4)")
                .arg(escapeBytes(m_name, 200), QString::fromUtf8(m_token))
                .arg(r.ttlMs)
                .arg(r.watchdog ? tr("watchdog renewing") : tr("fixed lease")));
        if (m_holdTimer)
            m_holdTimer->start();
        else if (m_endOfInput)
            releaseAndExit(tr("end of standard input"));
    });
}

void StringLockCommand::releaseAndExit(const QString &reason)
{
    if (m_releasing)
        return;
    m_releasing = true;
    m_holding = false;
    m_strings->release(m_name, m_token, [this, reason](const StringLockResult &r) {
        if (r.error.isError()) {
            finish(m_out.fail(r.error));
            return;
        }
        if (!r.done) {
            m_out.event(QStringLiteral("lost"), m_name, m_token, 0, -2,
                r.tokenNow.isEmpty()
                    ? tr("lost %1: the key was gone before it was released").arg(escapeBytes(m_name, 200))
                    : tr("lost %1: it now holds token %2; it was left alone")
                          .arg(escapeBytes(m_name, 200), escapeBytes(r.tokenNow, 200)));
            finish(ExitNotDone);
            return;
        }
        m_out.event(QStringLiteral("released"), m_name, m_token, 0, -2,
            tr("released %1 (%2)").arg(escapeBytes(m_name, 200), reason));
        finish(ExitDone);
    });
}

} // namespace LockScope::Cli

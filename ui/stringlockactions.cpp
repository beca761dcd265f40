#include "stringlockactions.h"

#include "lock/stringlockclient.h"
#include "monitor/lockmonitor.h"
#include "redis/bytesformat.h"

#include <QDateTime>
#include <QPointer>
#include <QTimer>

namespace LockScope {

namespace {
// As lockscope-cli's string lock waits: often enough to be quick, rarely enough not to load the server.
constexpr int kRetryIntervalMs = 100;
} // namespace

StringLockActions::StringLockActions(
    RedisRouter *connection, int watchdogTimeoutMs, LockMonitor *monitor, QWidget *window, QObject *parent)
    : QObject(parent)
    , m_client(new StringLockClient(connection, watchdogTimeoutMs, this))
    , m_monitor(monitor)
    , m_window(window)
{
    // Our hold vanished before we released it: reported as a lost Redisson hold is, in the lock's own timeline.
    connect(m_client, &StringLockClient::lost, this, [this](const QByteArray &name, const QByteArray &token) {
        if (m_holds.value(name).token != token)
            return;
        m_holds.remove(name);
        LockEvent e;
        e.timeMs = QDateTime::currentMSecsSinceEpoch();
        e.type = LockEvent::Type::Lost;
        e.name = name;
        e.owner = token;
        e.detail = tr("our string lock's token changed or the key vanished before we released it");
        m_monitor->noteEvent(e);
        emit message(
            tr("Lost %1: it expired, was deleted or was overwritten before we released it").arg(escapeBytes(name, 200)),
            true);
        m_monitor->refresh({ name });
        emit holdsChanged();
    });
}

StringLockActions::~StringLockActions() = default;

QHash<QByteArray, QByteArray> StringLockActions::holds() const
{
    QHash<QByteArray, QByteArray> tokens;
    for (auto it = m_holds.cbegin(); it != m_holds.cend(); ++it)
        tokens.insert(it.key(), it->token);
    return tokens;
}

QList<QByteArray> StringLockActions::holdersOf(const QByteArray &name) const
{
    QList<QByteArray> holders;
    if (const LockRecord *r = m_monitor->record(name); r && r->present)
        for (const LockHolder &h : r->info.holders)
            holders << h.owner;
    return holders;
}

void StringLockActions::forget(const QByteArray &name, const QByteArray &token)
{
    // The client forgets a hold once a compare-and-delete under its token answered, whatever the answer.
    if (m_holds.value(name).token == token) {
        m_holds.remove(name);
        emit holdsChanged();
    }
}

void StringLockActions::acquire(const QByteArray &name, qint64 leaseMs, qint64 waitMs)
{
    tryAcquire(name, leaseMs, waitMs > 0 ? monotonicMs() + waitMs : 0, holdersOf(name));
}

void StringLockActions::tryAcquire(
    const QByteArray &name, qint64 leaseMs, qint64 deadlineMs, const QList<QByteArray> &before)
{
    QPointer<StringLockActions> self(this);
    m_client->acquire(name, leaseMs, [self, name, leaseMs, deadlineMs, before](const StringLockResult &r) {
        if (!self)
            return;
        const QString shown = escapeBytes(name, 200);
        if (!r.error.isError() && !r.done && monotonicMs() + kRetryIntervalMs <= deadlineMs) {
            QTimer::singleShot(kRetryIntervalMs, self,
                [self, name, leaseMs, deadlineMs, before] { self->tryAcquire(name, leaseMs, deadlineMs, before); });
            return;
        }
        auto outcome = AuditRecord::Outcome::Failed;
        if (r.error.isError()) {
            emit self->message(tr("Acquire %1 failed: %2").arg(shown, r.error.toString()), true);
        } else if (!r.done) {
            outcome = AuditRecord::Outcome::Busy;
            emit self->message(r.tokenNow.isEmpty()
                    ? tr("%1 is not free and is not a string lock; not acquired").arg(shown)
                    : tr("%1 is held by token %2; not acquired").arg(shown, escapeBytes(r.tokenNow, 200)),
                true);
        } else {
            outcome = AuditRecord::Outcome::Acquired;
            self->m_holds.insert(name, { r.token, r.watchdog });
            emit self->message(tr("Acquired %1 as a string lock with token %2 (%3)")
                                   .arg(shown, QString::fromUtf8(r.token),
                                       r.watchdog ? tr("watchdog renewing") : tr("fixed lease of %1 ms").arg(r.ttlMs)),
                false);
            emit self->holdsChanged();
        }
        emit self->audited(QStringLiteral("acquire"), name, before, outcome, r.error);
        self->m_monitor->refresh({ name });
    });
}

void StringLockActions::release(const QByteArray &name)
{
    const QByteArray token = m_holds.value(name).token;
    if (token.isEmpty())
        return;
    const QList<QByteArray> before = holdersOf(name);
    QPointer<StringLockActions> self(this);
    m_client->release(name, token, [self, name, token, before](const StringLockResult &r) {
        if (!self)
            return;
        const QString shown = escapeBytes(name, 200);
        auto outcome = AuditRecord::Outcome::Failed;
        if (r.error.isError()) {
            emit self->message(tr("Release of %1 failed: %2").arg(shown, r.error.toString()), true);
        } else if (!r.done) {
            outcome = AuditRecord::Outcome::NotHeld;
            emit self->message(r.tokenNow.isEmpty()
                    ? tr("%1 was already gone before we released it").arg(shown)
                    : tr("%1 now holds token %2, not ours; it was left alone").arg(shown, escapeBytes(r.tokenNow, 200)),
                true);
        } else {
            outcome = AuditRecord::Outcome::Released;
            emit self->message(tr("Released %1").arg(shown), false);
        }
        if (!r.error.isError())
            self->forget(name, token);
        emit self->audited(QStringLiteral("release"), name, before, outcome, r.error);
        self->m_monitor->refresh({ name });
    });
}

bool StringLockActions::setWatchdogEnabled(const QByteArray &name, bool on)
{
    if (!m_holds.contains(name) || !m_client->setWatchdogEnabled(name, on))
        return false;
    m_holds[name].watchdog = on;
    emit holdsChanged();
    return true;
}

} // namespace LockScope

#include "demo/democlients.h"

#include "demo/demoactor.h"
#include "redis/bytesformat.h"

#include <iterator>
#include <utility>

namespace LockScope {

namespace {
constexpr int stopDeadlineMs = 3000;
}

DemoClients::DemoClients(ConnectionOptions connection, Options options, QObject *parent)
    : QObject(parent)
    , m_connection(std::move(connection))
    , m_options(options)
{
    qRegisterMetaType<DemoEvent>();
    m_options.clients = qBound(1, m_options.clients, 100);
    m_options.locks = qBound(1, m_options.locks, 100);
    m_options.watchdogTimeoutMs = qMax(300, m_options.watchdogTimeoutMs);
    m_names = makeLockNames(m_options.locks);
    m_stopDeadline.setSingleShot(true);
    // A waiter deep in a long wait does not hold up the end of the demo.
    connect(&m_stopDeadline, &QTimer::timeout, this, [this] {
        if (m_stopping) {
            m_stopping = false;
            emit stopped();
        }
    });
}

DemoClients::~DemoClients()
{
    // Actors first, while the names and options they were set up with still exist.
    qDeleteAll(std::exchange(m_actors, {}));
}

QList<QByteArray> DemoClients::makeLockNames(int count)
{
    static const char *const bases[]
        = { "orders:%1", "inventory:%1", "payments", "shipping:%1", "invoices:%1", "users:%1", "reports", "cache:%1" };
    QList<QByteArray> names;
    for (int i = 0; i < count; ++i) {
        const QString base = i < int(std::size(bases)) ? QString::fromLatin1(bases[i]) : QStringLiteral("jobs:%1");
        names << (QStringLiteral("demo:") + (base.contains(QLatin1String("%1")) ? base.arg(i + 1) : base)).toUtf8();
    }
    return names;
}

DemoEvent::Role DemoClients::roleOf(int clientNumber)
{
    using Role = DemoEvent::Role;
    static const Role first[]
        = { Role::WatchdogHolder, Role::Waiter, Role::CrashingHolder, Role::LeaseHolder, Role::Reentrant, Role::Waiter,
              Role::Reader, Role::Reader, Role::Writer, Role::FairWaiter, Role::FairWaiter, Role::FairWaiter };
    // One crashing holder is plenty: past the first twelve (a read-write pair and a fair queue from the seventh)
    // the others take turns.
    static const Role rest[] = { Role::WatchdogHolder, Role::Waiter, Role::LeaseHolder, Role::Reentrant, Role::Waiter };
    const int i = qMax(1, clientNumber) - 1;
    if (i < int(std::size(first)))
        return first[i];
    return rest[(i - int(std::size(first))) % int(std::size(rest))];
}

QString DemoClients::roleKey(DemoEvent::Role role)
{
    switch (role) {
    case DemoEvent::Role::WatchdogHolder:
        return QStringLiteral("watchdog-holder");
    case DemoEvent::Role::LeaseHolder:
        return QStringLiteral("lease-holder");
    case DemoEvent::Role::Waiter:
        return QStringLiteral("waiter");
    case DemoEvent::Role::Reentrant:
        return QStringLiteral("reentrant");
    case DemoEvent::Role::CrashingHolder:
        return QStringLiteral("crashing-holder");
    case DemoEvent::Role::Reader:
        return QStringLiteral("reader");
    case DemoEvent::Role::Writer:
        return QStringLiteral("writer");
    case DemoEvent::Role::FairWaiter:
        return QStringLiteral("fair-waiter");
    case DemoEvent::Role::ScheduledJob:
        return QStringLiteral("scheduled-job");
    case DemoEvent::Role::StringLockWorker:
        return QStringLiteral("string-lock-worker");
    case DemoEvent::Role::SemaphoreWorker:
        return QStringLiteral("semaphore-worker");
    }
    return {};
}

QString DemoClients::roleName(DemoEvent::Role role)
{
    switch (role) {
    case DemoEvent::Role::WatchdogHolder:
        return tr("watchdog holder");
    case DemoEvent::Role::LeaseHolder:
        return tr("fixed-lease holder");
    case DemoEvent::Role::Waiter:
        return tr("waiter");
    case DemoEvent::Role::Reentrant:
        return tr("reentrant holder");
    case DemoEvent::Role::CrashingHolder:
        return tr("crashing holder");
    case DemoEvent::Role::Reader:
        return tr("reader");
    case DemoEvent::Role::Writer:
        return tr("writer");
    case DemoEvent::Role::FairWaiter:
        return tr("fair-lock waiter");
    case DemoEvent::Role::ScheduledJob:
        return tr("ShedLock job");
    case DemoEvent::Role::StringLockWorker:
        return tr("python-redis-lock worker");
    case DemoEvent::Role::SemaphoreWorker:
        return tr("semaphore worker");
    }
    return {};
}

QString DemoClients::describe(const DemoEvent &e)
{
    const QString who = tr("client %1 (%2)").arg(e.client).arg(roleName(e.role));
    const QString name = escapeBytes(e.name, 200);
    const QString lease = e.watchdog ? tr("lease %1 ms, watchdog").arg(e.leaseMs)
        : e.leaseMs <= 0             ? tr("no lease")
                                     : tr("lease %1 ms").arg(e.leaseMs);
    const QString ttl = e.leaseMs < 0 ? tr("no TTL") : tr("TTL %1 ms").arg(e.leaseMs);
    switch (e.kind) {
    case DemoEvent::Kind::Acquired:
        return tr("%1 acquired %2 (%3)").arg(who, name, lease);
    case DemoEvent::Kind::Reentered:
        return tr("%1 entered %2 again, count %3 (%4)").arg(who, name).arg(e.count).arg(lease);
    case DemoEvent::Kind::Released:
        return e.count > 0 ? tr("%1 released one level of %2, count %3").arg(who, name).arg(e.count)
                           : tr("%1 released %2").arg(who, name);
    case DemoEvent::Kind::Renewed:
        return tr("%1 renewed %2 to %3 ms").arg(who, name).arg(e.leaseMs);
    case DemoEvent::Kind::Lost:
        return e.detail.isEmpty() ? tr("%1 lost %2: it expired or was deleted before release").arg(who, name)
                                  : tr("%1 lost %2: %3").arg(who, name, e.detail);
    case DemoEvent::Kind::Waiting:
        if (e.waitMs <= 0) // a library without wake-ups: it tries again until the lock is free
            return tr("%1 waits for %2, trying again until it is free").arg(who, name);
        return tr("%1 waits up to %2 ms for %3 (holder's %4)").arg(who).arg(e.waitMs).arg(name, ttl);
    case DemoEvent::Kind::GaveUp:
        return tr("%1 gave up on %2 after %3 ms").arg(who, name).arg(e.waitMs);
    case DemoEvent::Kind::Crashed:
        return tr("%1 crashed while holding %2: no renewal, no release; the lease runs out").arg(who, name);
    case DemoEvent::Kind::Failed:
        return tr("%1 failed on %2: %3").arg(who, name, e.detail);
    }
    return {};
}

void DemoClients::start()
{
    if (m_running)
        return;
    m_running = true;
    m_stopping = false;
    qDeleteAll(std::exchange(m_actors, {}));
    const QList<QByteArray> hot = m_names.mid(0, qMin(2, int(m_names.size())));
    for (int i = 1; i <= m_options.clients; ++i) {
        DemoActor::Setup setup;
        setup.number = i;
        setup.role = roleOf(i);
        setup.connection = m_connection;
        setup.watchdogTimeoutMs = m_options.watchdogTimeoutMs;
        setup.names = m_names;
        setup.hotNames = hot;
        auto *actor = new DemoActor(setup, this);
        connect(actor, &DemoActor::demoEvent, this, &DemoClients::demoEvent);
        connect(actor, &DemoActor::finished, this, &DemoClients::onActorFinished);
        m_actors << actor;
        actor->start();
    }
}

void DemoClients::stop()
{
    if (!m_running)
        return;
    m_running = false;
    m_stopping = true;
    m_stopDeadline.start(stopDeadlineMs);
    for (DemoActor *actor : std::as_const(m_actors))
        actor->stop();
    // Every actor may have been idle: then nothing else would ever call this. Queued, so that stopped() never
    // arrives before stop() has returned.
    QMetaObject::invokeMethod(this, &DemoClients::onActorFinished, Qt::QueuedConnection);
}

void DemoClients::onActorFinished()
{
    if (!m_stopping)
        return;
    for (const DemoActor *actor : std::as_const(m_actors)) {
        if (!actor->isFinished())
            return;
    }
    m_stopping = false;
    m_stopDeadline.stop();
    emit stopped();
}

} // namespace LockScope

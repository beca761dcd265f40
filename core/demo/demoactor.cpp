#include "demo/demoactor.h"

#include "kinds/locklayouts.h"
#include "lock/lockclient.h"

#include <QPointer>
#include <QRandomGenerator>

#include <utility>

namespace LockScope {

namespace {
int randomBetween(int minMs, int maxMs)
{
    return minMs >= maxMs ? minMs : int(QRandomGenerator::global()->bounded(minMs, maxMs + 1));
}

// Java thread ids of a busy application server are small-ish positive numbers; look the part.
QByteArray randomThreadToken()
{
    return QByteArray::number(randomBetween(20, 480));
}
} // namespace

DemoActor::DemoActor(Setup setup, QObject *parent)
    : QObject(parent)
    , m_setup(std::move(setup))
{
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, [this] {
        if (Step step = std::exchange(m_step, nullptr))
            step();
    });
    makeClient();
}

DemoActor::~DemoActor()
{
    // Pending callbacks of the client compare against m_client: clearing it first turns the "shut down"
    // answers the client gives its waiters on destruction into no-ops.
    delete std::exchange(m_client, nullptr);
}

void DemoActor::makeClient()
{
    LockClientOptions options;
    options.watchdogTimeoutMs = m_setup.watchdogTimeoutMs;
    m_client = new LockClient(m_setup.connection, options, this);
    m_token = randomThreadToken();
    QPointer<LockClient> client(m_client);
    connect(m_client, &LockClient::holdRenewed, this, [this, client](const HoldEvent &hold) {
        if (client == m_client && hold.name == m_name && hold.owner == owner() && m_count > 0)
            emitEvent(DemoEvent::Kind::Renewed, hold.leaseMs);
    });
    connect(m_client, &LockClient::holdLost, this, [this, client](const HoldEvent &hold) {
        if (client == m_client && hold.name == m_name && hold.owner == owner())
            onLost(hold);
    });
}

QByteArray DemoActor::owner() const
{
    // A write hold's field carries ":write", exactly as Redisson stores it.
    return m_client ? LockLayouts::actionsFor(m_kind).ownerField(m_kind, m_client->ownerField(m_token)) : QByteArray();
}

QByteArray DemoActor::pickName(bool hot) const
{
    const QList<QByteArray> &names = hot && !m_setup.hotNames.isEmpty() ? m_setup.hotNames : m_setup.names;
    return names.value(randomBetween(0, int(names.size()) - 1));
}

void DemoActor::start()
{
    // Staggered, so the first seconds already show contention rather than one burst.
    const bool crasher = m_setup.role == DemoEvent::Role::CrashingHolder;
    after(crasher ? 800 : 0, crasher ? 2000 : 1500, [this] { nextCycle(); });
}

void DemoActor::stop()
{
    if (m_stopping)
        return;
    m_stopping = true;
    m_timer.stop();
    m_step = nullptr;
    // A command in flight carries on from its answer, which sees m_stopping. A waiter is told to stop waiting: else
    // it could win the lock after the demo ended and leave it held until its lease ran out.
    if (m_acquiring)
        m_client->cancelAcquire(m_name, owner());
    else if (m_count > 0 && !m_crashed && !m_releasing)
        releaseAll();
    else
        finishIfIdle();
}

void DemoActor::finishIfIdle()
{
    if (m_finished || m_releasing || m_acquiring || (m_count > 0 && !m_crashed))
        return;
    m_finished = true;
    emit finished();
}

void DemoActor::after(int minMs, int maxMs, Step step)
{
    if (m_stopping)
        return;
    m_step = std::move(step);
    m_timer.start(randomBetween(minMs, maxMs));
}

void DemoActor::pauseThenNextCycle(int minMs, int maxMs)
{
    if (m_stopping)
        finishIfIdle();
    else
        after(minMs, maxMs, [this] { nextCycle(); });
}

void DemoActor::nextCycle()
{
    m_count = 0;
    m_watchdog = false;
    m_kind = LockMode::Reentrant;
    switch (m_setup.role) {
    case DemoEvent::Role::WatchdogHolder:
        m_name = pickName(false);
        acquire(-1, randomBetween(2000, 6000), [this] { after(3000, 9000, [this] { releaseAll(); }); });
        break;
    case DemoEvent::Role::LeaseHolder: {
        m_name = pickName(false);
        const int lease = randomBetween(3000, 8000);
        // Released well before the lease ends: a fixed lease that runs out is the crashing holder's story.
        acquire(lease, randomBetween(0, 3000),
            [this, lease] { after(lease * 2 / 5, lease * 4 / 5, [this] { releaseAll(); }); });
        break;
    }
    case DemoEvent::Role::Waiter:
        m_name = pickName(true);
        acquire(-1, randomBetween(4000, 12000), [this] { after(800, 2500, [this] { releaseAll(); }); });
        break;
    case DemoEvent::Role::Reentrant:
        m_name = pickName(false);
        acquire(-1, randomBetween(1000, 4000), [this] { after(600, 1500, [this] { enterAgain(); }); });
        break;
    case DemoEvent::Role::CrashingHolder:
        m_name = pickName(true);
        acquire(-1, randomBetween(2000, 8000), [this] { after(4000, 7000, [this] { crash(); }); });
        break;
    // Readers share demo:report and keep its writer waiting; the writer excludes both while it holds.
    case DemoEvent::Role::Reader:
        m_name = "demo:report";
        m_kind = LockMode::Read;
        acquire(-1, randomBetween(2000, 6000), [this] { after(2000, 5000, [this] { releaseAll(); }); });
        break;
    case DemoEvent::Role::Writer:
        m_name = "demo:report";
        m_kind = LockMode::Write;
        acquire(-1, randomBetween(4000, 10000), [this] { after(1000, 3000, [this] { releaseAll(); }); });
        break;
    // A fair lock served in arrival order: its queue is visible in the detail pane.
    case DemoEvent::Role::FairWaiter:
        m_name = "demo:payroll";
        m_kind = LockMode::Fair;
        acquire(-1, randomBetween(8000, 15000), [this] { after(1500, 3500, [this] { releaseAll(); }); });
        break;
    case DemoEvent::Role::ScheduledJob:
    case DemoEvent::Role::StringLockWorker:
    case DemoEvent::Role::SemaphoreWorker:
        break; // the mixed fleet's (demofleet.cpp), never an actor's
    }
}

// The second level of a reentrant hold: held a while, then given back one level at a time.
void DemoActor::enterAgain()
{
    acquire(-1, 0,
        [this] { after(1500, 4000, [this] { releaseOne([this] { after(500, 1500, [this] { releaseAll(); }); }); }); });
}

void DemoActor::acquire(qint64 leaseMs, qint64 waitMs, Step then)
{
    AcquireRequest request;
    request.name = m_name;
    request.token = m_token;
    request.kind = m_kind;
    request.leaseMs = leaseMs;
    m_acquiring = true;
    QPointer<LockClient> client(m_client);
    // A first try without waiting, so that "waiting" is only reported when the lock really is taken.
    m_client->acquire(request, [this, client, request, waitMs, then](const AcquireResult &first) mutable {
        if (client != m_client)
            return;
        if (first.acquired || first.error.isError() || waitMs == 0 || m_stopping) {
            onAcquireResult(first, then);
            return;
        }
        emitEvent(DemoEvent::Kind::Waiting, first.ttlMs, {}, waitMs);
        request.waitMs = waitMs;
        m_client->acquire(request, [this, client, waitMs, then](const AcquireResult &result) {
            if (client == m_client)
                onAcquireResult(result, then, waitMs);
        });
    });
}

void DemoActor::onAcquireResult(const AcquireResult &result, Step then, qint64 waitedMs)
{
    m_acquiring = false;
    if (result.error.isError()) {
        emitEvent(DemoEvent::Kind::Failed, 0, result.error.toString());
        pauseThenNextCycle(2000, 4000);
        return;
    }
    if (!result.acquired) {
        if (!m_stopping)
            emitEvent(DemoEvent::Kind::GaveUp, result.ttlMs, {}, waitedMs);
        pauseThenNextCycle(500, 2000);
        return;
    }
    if (m_count == 0)
        m_watchdog = result.watchdog;
    ++m_count;
    m_leaseMs = result.leaseMs;
    emitEvent(m_count > 1 ? DemoEvent::Kind::Reentered : DemoEvent::Kind::Acquired, result.leaseMs);
    if (m_stopping)
        releaseAll();
    else
        then();
}

void DemoActor::releaseOne(Step then)
{
    m_releasing = true;
    QPointer<LockClient> client(m_client);
    m_client->release(
        m_name, owner(),
        [this, client, then](const ReleaseResult &result) {
            if (client != m_client)
                return;
            m_releasing = false;
            if (result.error.isError() || result.outcome == ReleaseResult::Outcome::NotHeld) {
                // Either way the hold is over for this client: a failed release runs out with its lease.
                const bool wasHeld = m_count > 0;
                m_count = 0;
                if (result.error.isError())
                    emitEvent(DemoEvent::Kind::Failed, 0, result.error.toString());
                else if (wasHeld)
                    emitEvent(DemoEvent::Kind::Lost, 0, result.message);
                pauseThenNextCycle(1000, 2500);
                return;
            }
            // A read release answers "still held" also when only other readers remain: our own count decides.
            m_count = result.outcome == ReleaseResult::Outcome::Released ? 0
                : LockLayouts::mode(m_kind).shared                       ? qMax(0, m_count - 1)
                                                                         : qMax(1, m_count - 1);
            emitEvent(DemoEvent::Kind::Released, m_count > 0 ? m_leaseMs : 0);
            if (m_stopping)
                releaseAll();
            else
                then();
        },
        m_kind);
}

void DemoActor::releaseAll()
{
    if (m_count > 0)
        releaseOne([this] { releaseAll(); });
    else
        pauseThenNextCycle(500, 2500);
}

void DemoActor::crash()
{
    // The process "dies": nothing renews the lease and nothing releases it. Only the watchdog's check keeps
    // running, standing in for everyone else who will find the lock expired.
    m_client->setWatchdogEnabled(m_name, owner(), false);
    m_crashed = true;
    emitEvent(DemoEvent::Kind::Crashed, m_leaseMs);
    if (m_stopping)
        finishIfIdle();
}

void DemoActor::onLost(const HoldEvent &hold)
{
    if (m_count == 0)
        return;
    m_count = 0;
    emitEvent(DemoEvent::Kind::Lost, hold.leaseMs);
    // An acquire or release in flight carries the cycle on from its own answer.
    if (m_acquiring || m_releasing)
        return;
    m_timer.stop();
    m_step = nullptr;
    if (!m_crashed) {
        pauseThenNextCycle(1000, 2000);
        return;
    }
    m_crashed = false;
    if (m_stopping) {
        finishIfIdle();
        return;
    }
    // A restarted process is a new RedissonClient: a new client id.
    after(2000, 4000, [this] {
        std::exchange(m_client, nullptr)->deleteLater();
        makeClient();
        nextCycle();
    });
}

void DemoActor::emitEvent(DemoEvent::Kind kind, qint64 leaseMs, const QString &detail, qint64 waitMs)
{
    DemoEvent e;
    e.kind = kind;
    e.role = m_setup.role;
    e.client = m_setup.number;
    e.name = m_name;
    e.owner = owner();
    e.count = m_count;
    e.leaseMs = leaseMs;
    e.watchdog = m_watchdog;
    e.waitMs = waitMs;
    e.time = QDateTime::currentDateTimeUtc();
    e.detail = detail;
    emit demoEvent(e);
}

} // namespace LockScope

#include "demo/demofleet.h"

#include "kinds/semaphore/semaphorelayout.h"
#include "redis/redisrouter.h"
#include "redis/redisscript.h"

#include <QDateTime>
#include <QPointer>
#include <QRandomGenerator>

namespace LockScope {

namespace {
int randomBetween(int minMs, int maxMs)
{
    return minMs >= maxMs ? minMs : int(QRandomGenerator::global()->bounded(minMs, maxMs + 1));
}

// python-redis-lock's token: 18 random bytes, standard base64 (24 characters, no padding).
QByteArray pythonToken()
{
    QByteArray bytes(18, Qt::Uninitialized);
    for (char &c : bytes)
        c = char(QRandomGenerator::global()->bounded(256));
    return bytes.toBase64();
}

// python-redis-lock's release: compare-and-delete, then one push on the signal list that wakes one BLPOP waiter.
const RedisScript &pythonRelease()
{
    static const RedisScript script(R"LUA(
if redis.call('get', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('del', KEYS[2])
redis.call('lpush', KEYS[2], 1)
redis.call('pexpire', KEYS[2], 1000)
redis.call('del', KEYS[1])
return 1
)LUA");
    return script;
}

// Redisson's RSemaphore.tryAcquire(1) and release(1): the count, and the new count published to its waiters.
const RedisScript &semaphoreTake()
{
    static const RedisScript script(R"LUA(
local value = redis.call('get', KEYS[1])
if value ~= false and tonumber(value) >= 1 then
    redis.call('decrby', KEYS[1], 1)
    return 1
end
return 0
)LUA");
    return script;
}

const RedisScript &semaphoreGive()
{
    static const RedisScript script(R"LUA(
local value = redis.call('incrby', KEYS[1], 1)
redis.call('publish', KEYS[2], value)
return value
)LUA");
    return script;
}

constexpr int kJobLeaseMs = 15000; // ShedLock's lockAtMostFor
constexpr int kJobCoolDownMs = 4000; // what is left of lockAtLeastFor when the job ends
constexpr int kStringLockSeconds = 10;
} // namespace

DemoFleet::DemoFleet(ConnectionOptions connection, int firstClient, QObject *parent)
    : QObject(parent)
    , m_options(std::move(connection))
    , m_connection(new RedisRouter(m_options, this))
{
    const DemoEvent::Role roles[]
        = { DemoEvent::Role::ScheduledJob, DemoEvent::Role::StringLockWorker, DemoEvent::Role::StringLockWorker,
              DemoEvent::Role::SemaphoreWorker, DemoEvent::Role::SemaphoreWorker, DemoEvent::Role::SemaphoreWorker };
    int client = firstClient;
    for (DemoEvent::Role role : roles) {
        Worker w;
        w.client = client++;
        w.role = role;
        w.timer = new QTimer(this);
        w.timer->setSingleShot(true);
        m_workers << w;
    }
}

DemoFleet::~DemoFleet() = default;

void DemoFleet::start()
{
    m_connection->open();
    // Two permits, as RSemaphore.trySetPermits(2) leaves them; reset on every start, so that permits held when an
    // earlier demo stopped are not lost for good.
    m_connection->command({ "SET", kSemaphore, "2" });
    for (Worker &w : m_workers)
        after(w, 500, 3000, [this, &w] { cycle(w); });
}

void DemoFleet::after(Worker &w, int minMs, int maxMs, std::function<void()> step)
{
    w.timer->disconnect();
    connect(w.timer, &QTimer::timeout, this, std::move(step));
    w.timer->start(randomBetween(minMs, maxMs));
}

void DemoFleet::emitEvent(const Worker &w, DemoEvent::Kind kind, const QByteArray &name, qint64 leaseMs)
{
    DemoEvent e;
    e.kind = kind;
    e.role = w.role;
    e.client = w.client;
    e.name = name;
    e.owner = w.token;
    e.count = kind == DemoEvent::Kind::Acquired ? 1 : 0;
    e.leaseMs = leaseMs;
    e.time = QDateTime::currentDateTimeUtc();
    emit demoEvent(e);
}

void DemoFleet::cycle(Worker &w)
{
    switch (w.role) {
    case DemoEvent::Role::ScheduledJob:
        runJob(w);
        return;
    case DemoEvent::Role::StringLockWorker:
        takeStringLock(w);
        return;
    case DemoEvent::Role::SemaphoreWorker:
        takePermit(w);
        return;
    default:
        return;
    }
}

void DemoFleet::runJob(Worker &w)
{
    // ShedLock: SET NX PX lockAtMostFor with "ADDED:<time>@<host>"; when the job ends early, the lock is kept for
    // the rest of lockAtLeastFor (SET XX PX): a cool-down, not a stuck lock.
    const QByteArray token
        = "ADDED:" + QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs).toLatin1() + "@demo-scheduler-1";
    QPointer<DemoFleet> self(this);
    m_connection->command({ "SET", kJobLock, token, "NX", "PX", QByteArray::number(kJobLeaseMs) },
        [self, &w, token](const RedisResult &r) {
            if (!self)
                return;
            if (r.ok() && r.value.bytes() == "OK") {
                w.token = token;
                self->emitEvent(w, DemoEvent::Kind::Acquired, kJobLock, kJobLeaseMs);
                self->after(w, 3000, 6000, [self, &w] {
                    self->m_connection->command(
                        { "SET", kJobLock, w.token, "XX", "PX", QByteArray::number(kJobCoolDownMs) });
                    self->emitEvent(w, DemoEvent::Kind::Released, kJobLock, kJobCoolDownMs);
                    w.token.clear();
                    self->after(w, 12000, 20000, [self, &w] { self->cycle(w); });
                });
                return;
            }
            // Another scheduler ran it (or its cool-down is on): this run is skipped, as ShedLock skips it.
            self->after(w, 12000, 20000, [self, &w] { self->cycle(w); });
        });
}

void DemoFleet::takeStringLock(Worker &w)
{
    const QByteArray token = pythonToken();
    QPointer<DemoFleet> self(this);
    m_connection->command({ "SET", kStringLock, token, "NX", "EX", QByteArray::number(kStringLockSeconds) },
        [self, &w, token](const RedisResult &r) {
            if (!self)
                return;
            if (!(r.ok() && r.value.bytes() == "OK")) {
                if (!w.waiting)
                    self->emitEvent(w, DemoEvent::Kind::Waiting, kStringLock);
                w.waiting = true;
                self->after(w, 300, 800, [self, &w] { self->cycle(w); });
                return;
            }
            w.waiting = false;
            w.token = token;
            self->emitEvent(w, DemoEvent::Kind::Acquired, kStringLock, kStringLockSeconds * 1000);
            self->after(w, 2000, 4000, [self, &w] {
                const QByteArray signal = QByteArray("lock-signal:") + (kStringLock + 5);
                self->m_connection->eval(pythonRelease(), { kStringLock, signal }, { w.token }, {});
                self->emitEvent(w, DemoEvent::Kind::Released, kStringLock);
                w.token.clear();
                self->after(w, 1000, 3000, [self, &w] { self->cycle(w); });
            });
        });
}

void DemoFleet::takePermit(Worker &w)
{
    QPointer<DemoFleet> self(this);
    m_connection->eval(semaphoreTake(), { kSemaphore }, {}, [self, &w](const RedisResult &r) {
        if (!self)
            return;
        if (!r.ok() || r.value.toInteger() != 1) {
            if (!w.waiting)
                self->emitEvent(w, DemoEvent::Kind::Waiting, kSemaphore);
            w.waiting = true;
            self->after(w, 400, 900, [self, &w] { self->cycle(w); });
            return;
        }
        w.waiting = false;
        self->emitEvent(w, DemoEvent::Kind::Acquired, kSemaphore);
        self->after(w, 2000, 6000, [self, &w] {
            self->m_connection->eval(semaphoreGive(), { kSemaphore, SemaphoreLayout::channel(kSemaphore) }, {}, {});
            self->emitEvent(w, DemoEvent::Kind::Released, kSemaphore);
            self->after(w, 1000, 4000, [self, &w] { self->cycle(w); });
        });
    });
}

} // namespace LockScope

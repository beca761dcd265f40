#pragma once

#include "demo/demoevent.h"
#include "redis/connectionoptions.h"

#include <QObject>
#include <QTimer>

#include <functional>

namespace LockScope {

class RedisRouter;

// The rest of a mixed fleet beside the simulated Redisson clients, each written exactly as its library writes it
// (docs/protocol/libraries.md, semaphores.md): a ShedLock job that takes job-lock:default:demo-nightly-report, runs,
// and keeps it through its cool-down; two python-redis-lock workers taking turns on lock:demo:invoices, whose release
// pushes the signal list; and three workers sharing the two permits of the Redisson semaphore demo:permits (shown
// where its name is declared redisson=demo:permits, as the app's demo does). Every step is a timer of this object:
// destroying it stops everything at once; holds then end with their leases, and the semaphore is reset to two
// permits on the next start.
class DemoFleet : public QObject
{
    Q_OBJECT
public:
    static constexpr const char *kJobLock = "job-lock:default:demo-nightly-report";
    static constexpr const char *kStringLock = "lock:demo:invoices";
    static constexpr const char *kSemaphore = "demo:permits";

    // firstClient: the number the fleet's first client gets in events (after the Redisson clients').
    DemoFleet(ConnectionOptions connection, int firstClient, QObject *parent = nullptr);
    ~DemoFleet() override;

    void start();

signals:
    void demoEvent(const LockScope::DemoEvent &event);

private:
    struct Worker
    {
        int client = 0;
        DemoEvent::Role role = DemoEvent::Role::ScheduledJob;
        QByteArray token; // what its current hold wrote, or empty
        bool waiting = false;
        QTimer *timer = nullptr;
    };
    void after(Worker &w, int minMs, int maxMs, std::function<void()> step);
    void cycle(Worker &w);
    void runJob(Worker &w);
    void takeStringLock(Worker &w);
    void takePermit(Worker &w);
    void emitEvent(const Worker &w, DemoEvent::Kind kind, const QByteArray &name, qint64 leaseMs = 0);

    ConnectionOptions m_options;
    RedisRouter *m_connection;
    QList<Worker> m_workers;
};

} // namespace LockScope

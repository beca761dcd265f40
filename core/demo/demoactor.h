#pragma once

#include "demo/demoevent.h"
#include "kinds/locktypes.h"
#include "redis/connectionoptions.h"

#include <QObject>
#include <QTimer>

#include <functional>

namespace LockScope {

class LockClient;

// One simulated Redisson client with its own client id, playing one role in a loop: pick a lock, acquire it
// (waiting if it is taken), hold it for a while, release it, pause, repeat. Every step runs on one timer, so
// destroying the actor stops it at once.
class DemoActor : public QObject
{
    Q_OBJECT
public:
    struct Setup
    {
        int number = 1;
        DemoEvent::Role role = DemoEvent::Role::WatchdogHolder;
        ConnectionOptions connection;
        int watchdogTimeoutMs = 6000;
        QList<QByteArray> names; // every demo lock
        QList<QByteArray> hotNames; // the contended ones waiters prefer
    };

    explicit DemoActor(Setup setup, QObject *parent = nullptr);
    ~DemoActor() override;

    void start();
    // No new cycles; a hold in progress is released cleanly, then finished() is emitted.
    void stop();
    bool isFinished() const { return m_finished; }

signals:
    void demoEvent(const LockScope::DemoEvent &event);
    void finished();

private:
    using Step = std::function<void()>;

    void makeClient();
    void nextCycle();
    void enterAgain();
    void acquire(qint64 leaseMs, qint64 waitMs, Step then);
    void onAcquireResult(const AcquireResult &result, Step then, qint64 waitedMs = 0);
    void releaseOne(Step then);
    void releaseAll();
    void crash();
    void onLost(const HoldEvent &hold);
    void after(int minMs, int maxMs, Step step);
    void pauseThenNextCycle(int minMs, int maxMs);
    void finishIfIdle();
    void emitEvent(DemoEvent::Kind kind, qint64 leaseMs = 0, const QString &detail = {}, qint64 waitMs = 0);
    QByteArray owner() const;
    QByteArray pickName(bool hot) const;

    Setup m_setup;
    LockClient *m_client = nullptr;
    QTimer m_timer;
    Step m_step;
    QByteArray m_token;
    LockMode m_kind = LockMode::Reentrant; // of the current cycle's lock
    QByteArray m_name;
    int m_count = 0;
    qint64 m_leaseMs = 0;
    bool m_watchdog = false;
    bool m_acquiring = false;
    bool m_releasing = false;
    bool m_crashed = false;
    bool m_stopping = false;
    bool m_finished = false;
};

} // namespace LockScope

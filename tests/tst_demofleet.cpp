// The demo's mixed fleet (demo/demofleet.h) against a real redis-server: what it writes is what each library writes,
// so a monitor configured as the app's demo is (redisson=demo:permits declared) shows its ShedLock job, its
// python-redis-lock lock and its Redisson semaphore with the right layout and library, and the semaphore never loses a
// permit: every worker gives back what it took.
#include "demo/demofleet.h"
#include "monitorwatch.h"
#include "rawredis.h"
#include "redisserver.h"

#include <QHash>
#include <QSignalSpy>
#include <QTest>

using namespace LockScope;
using namespace LockScope::Test;

class TestDemoFleet : public QObject
{
    Q_OBJECT
    RedisServer m_server;

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
    }

    void everyLibraryOfTheFleetIsShownAsItsOwn()
    {
        LockMonitor::Options options;
        options.rescanIntervalMs = 200;
        options.stringPatterns.declare("redisson", DemoFleet::kSemaphore);
        MonitorWatch watch(ConnectionOptions::fromUrl(m_server.url()), options);
        QHash<QByteArray, QPair<QByteArray, QByteArray>> seen; // name -> kind, library, whenever a row showed
        QObject::connect(&watch.monitor, &LockMonitor::locksChanged, [&](const LockMonitor::Changes &changes) {
            for (const QByteArray &name : changes.updated)
                if (const LockRecord *r = watch.monitor.record(name); r && r->present)
                    seen.insert(name, { LockInfo::kindName(r->info.kind), r->info.library });
        });
        QVERIFY(watch.start());
        QList<DemoEvent> events;
        DemoFleet fleet(ConnectionOptions::fromUrl(m_server.url()), 13);
        QObject::connect(&fleet, &DemoFleet::demoEvent, [&](const DemoEvent &e) { events << e; });
        fleet.start();
        const auto pair
            = [](const char *kind, const char *library) { return QPair<QByteArray, QByteArray>(kind, library); };
        QTRY_COMPARE_WITH_TIMEOUT(seen.value(DemoFleet::kJobLock), pair("string", "shedlock"), 60000);
        QTRY_COMPARE_WITH_TIMEOUT(seen.value(DemoFleet::kStringLock), pair("string", "python-redis-lock"), 60000);
        QTRY_COMPARE_WITH_TIMEOUT(seen.value(DemoFleet::kSemaphore), pair("semaphore", "redisson"), 60000);
        // The semaphore's workers took permits and gave them back: taken minus given is what is missing from 2.
        QTRY_VERIFY_WITH_TIMEOUT(std::count_if(events.cbegin(), events.cend(),
                                     [](const DemoEvent &e) {
                                         return e.name == DemoFleet::kSemaphore && e.kind == DemoEvent::Kind::Released;
                                     })
                >= 2,
            60000);
        const auto count = [&events](DemoEvent::Kind kind) {
            return std::count_if(events.cbegin(), events.cend(),
                [kind](const DemoEvent &e) { return e.name == DemoFleet::kSemaphore && e.kind == kind; });
        };
        RawRedis raw(m_server.port());
        const qint64 held = count(DemoEvent::Kind::Acquired) - count(DemoEvent::Kind::Released);
        QVERIFY2(held >= 0 && held <= 2, qPrintable(QString::number(held)));
        // Read after the events: one more take or give may have happened since, never a lost or invented permit.
        const qint64 free = raw.get(DemoFleet::kSemaphore).toLongLong();
        QVERIFY2(free >= 0 && free <= 2, qPrintable(QString::number(free)));
    }
};

QTEST_GUILESS_MAIN(TestDemoFleet)
#include "tst_demofleet.moc"

// The key and channel names the live feed maps back to lock names (LockNameMap): aux keys and channels of plain and
// whole-hash-tag names, and the release channels every lock hash layout declares, heard on its own patterns and
// mapped back to the lock. No server.
#include "kinds/keyglob.h"
#include "kinds/locklayout.h"
#include "kinds/locklayouts.h"
#include "kinds/locknamemap.h"
#include "kinds/locknames.h"

#include <QTest>

#include <algorithm>

using namespace LockScope;

namespace {
const QByteArray kA = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:731";
} // namespace

class TestLockNameMap : public QObject
{
    Q_OBJECT
private slots:
    void namesFromKeysAndChannels()
    {
        // "{orders:42}" is the aux part of "orders:42" and also a lock name of its own: both readings come back.
        const QList<QByteArray> both { "orders:42", "{orders:42}" };
        QCOMPARE(LockNameMap::fromKey("orders:42"), QList<QByteArray> { "orders:42" });
        QCOMPARE(LockNameMap::fromKey("redisson_lock_queue:{orders:42}"), both);
        QCOMPARE(LockNameMap::fromKey("redisson_lock_timeout:{orders:42}"), both);
        QCOMPARE(LockNameMap::fromKey("redisson_lock_token:{orders:42}"), both);
        QCOMPARE(LockNameMap::fromKey("{orders:42}:" + kA + ":rwlock_timeout:3"), both);
        QCOMPARE(LockNameMap::fromKey("redisson_lock_queue:a{b"), QList<QByteArray> { "a{b" }); // no braces added
        QCOMPARE(LockNameMap::fromKey("a{b:" + kA + ":rwlock_timeout:1"), QList<QByteArray> { "a{b" });
        QCOMPARE(LockNameMap::fromChannel("redisson_lock__channel:{orders:42}"), both);
        QCOMPARE(LockNameMap::fromChannel("redisson_rwlock:{orders:42}"), both);
        QVERIFY(LockNameMap::fromChannel("redisson_lock__channel:{orders:42}:" + kA).contains("orders:42"));
        QVERIFY(LockNameMap::fromChannel("other").isEmpty());
        QVERIFY(LockNameMap::isBookkeeping("redisson_unlock_latch:{orders:42}:00ff"));
    }

    // Found by tests/fuzz/fuzz_classifier (regress-hashtag-name): a lock named as one whole hash tag keeps its name
    // in its aux keys and channels ("redisson_lock_queue:{orders}"), which once mapped back only to "orders".
    void namesOfAWholeHashTagLock()
    {
        const QByteArray name = "{orders}";
        const QByteArray owner = kA; // "<uuid>:731"
        QVERIFY(LockNameMap::fromKey(LockNames::fairQueue(name)).contains(name));
        QVERIFY(LockNameMap::fromKey(LockNames::fairTimeouts(name)).contains(name));
        QVERIFY(LockNameMap::fromKey(LockNames::fencingToken(name)).contains(name));
        QVERIFY(LockNameMap::fromKey(LockNames::rwTimeoutPrefix(name, owner) + ":1").contains(name));
        QVERIFY(LockNameMap::fromChannel(LockNames::lockChannel(name)).contains(name));
        QVERIFY(LockNameMap::fromChannel(LockNames::rwChannel(name)).contains(name));
        QVERIFY(LockNameMap::fromChannel(LockNames::fairChannel(name, owner)).contains(name));
        QCOMPARE(LockNameMap::fromKey(name), QList<QByteArray> { name });
    }

    // The monitor subscribes to what the layouts declare: every lock hash layout whose releases wake waiters is heard
    // on one of its own patterns, and a message there maps back to the lock (plain and whole-hash-tag names, a
    // waiter's own channel too). A lock layout that publishes elsewhere without saying so fails here. (Redisson's
    // semaphore and latch publish too; the monitor reads their counts, it does not judge their holds by messages.)
    void everyReleaseChannelIsHeardAndMappedBack()
    {
        QCOMPARE(LockNameMap::releaseChannelPatterns(),
            (QList<QByteArray> { "redisson_lock__channel:*", "redisson_rwlock:*" }));
        int heard = 0;
        for (const LockLayout *layout : LockLayouts::all()) {
            if (!layout->capabilities().wakeChannel || !layout->recogniser().hashMark())
                continue;
            for (const QByteArray &name : { QByteArray("orders:42"), QByteArray("{orders}") }) {
                for (const QByteArray &channel :
                    { layout->recogniser().releaseChannel(name), layout->lockActions()->waitChannel(name, kA) }) {
                    const QList<QByteArray> patterns = layout->recogniser().releaseChannelPatterns();
                    QVERIFY2(std::any_of(patterns.cbegin(), patterns.cend(),
                                 [&](const QByteArray &p) { return globMatch(p, channel); }),
                        layout->id());
                    QVERIFY2(layout->recogniser().namesFromChannel(channel).contains(name),
                        layout->id() + QByteArray(" ") + channel);
                    QVERIFY2(LockNameMap::fromChannel(channel).contains(name), channel.constData());
                }
            }
            ++heard;
        }
        QCOMPARE(heard, 4); // reentrant, fenced, fair, read-write
    }
};

QTEST_GUILESS_MAIN(TestLockNameMap)
#include "tst_locknamemap.moc"

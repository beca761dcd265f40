// Classification (docs/protocol/classification.md) on snapshots built by hand: every kind with its evidence, and the
// look-alikes that must stay user data.
#include "kinds/fair/fairlayout.h"
#include "kinds/fenced/fencedlayout.h"
#include "kinds/keyglob.h"
#include "kinds/lockclassifier.h"
#include "kinds/readwrite/readwritelayout.h"
#include "kinds/semaphore/counterlayout.h"

#include <QTest>

using namespace LockScope;

using Fields = QList<QPair<QByteArray, QByteArray>>;

namespace {
const QByteArray kClient = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac";
const QByteArray kOwner = kClient + ":731";
const QByteArray kOther = "0b5b1f6e-2f0e-4d5c-9a4b-1c2d3e4f5a6b:12";

KeySnapshot string(const QByteArray &name, const QByteArray &value, qint64 pttl, bool inPatterns = true)
{
    KeySnapshot k;
    k.name = name;
    k.type = "string";
    k.value = value;
    k.pttlMs = pttl;
    k.stringPattern = inPatterns;
    return k;
}

KeySnapshot hash(Fields fields, qint64 pttl = 25000)
{
    KeySnapshot k;
    k.name = "orders:42";
    k.type = "hash";
    k.fields = std::move(fields);
    k.pttlMs = pttl;
    k.nowMs = 1'800'000'000'000;
    return k;
}
} // namespace

class TestClassifier : public QObject
{
    Q_OBJECT
private slots:
    void ownerFields()
    {
        bool decimal = false;
        QVERIFY(isOwnerField(kOwner, &decimal));
        QVERIFY(decimal);
        QVERIFY(isOwnerField(kClient + ":-4", &decimal));
        QVERIFY(decimal);
        QVERIFY(isOwnerField(kClient + ":" + kClient.left(8), &decimal)); // another implementation's token
        QVERIFY(!decimal);
        QVERIFY(!isOwnerField(kClient + ":"));
        QVERIFY(!isOwnerField("6E3D30B7-83B1-433A-9335-5E8B9916D3AC:1")); // Java writes lowercase
        QVERIFY(!isOwnerField("session:1234"));
        QVERIFY(!isOwnerField(kOwner + ":write")); // a suffix is the caller's to strip
    }

    void reentrant()
    {
        // A waiter listening on its wake-up channel vouches for it, beyond its shape.
        KeySnapshot k = hash({ { kOwner, "2" } });
        k.channelSubscribers = 1;
        const LockInfo i = classify(k);
        QCOMPARE(i.kind, LockInfo::Kind::Reentrant);
        QCOMPARE(i.confidence, LockInfo::Confidence::High);
        QVERIFY(lowConfidenceText(i).isEmpty());
        QCOMPARE(i.holders.size(), 1);
        QCOMPARE(i.holders.at(0).client, kClient);
        QCOMPARE(i.holders.at(0).thread, "731");
        QCOMPARE(i.holders.at(0).count, 2);
        QCOMPARE(i.ttlMs, 25000);
        QVERIFY(i.warnings.isEmpty());
        QVERIFY(!i.evidence.isEmpty());
    }

    void fencedFairAndTransactional()
    {
        KeySnapshot k = hash({ { kOwner, "1" } });
        k.aux.get<FencedAux>().tokenKeyExists = true;
        QCOMPARE(classify(k).kind, LockInfo::Kind::Fenced);
        k = hash({ { kOwner, "1" } });
        k.aux.get<FairQueueAux>().queue = { kOther };
        k.aux.get<FairQueueAux>().deadlines = { { kOther, k.nowMs + 60000 } };
        const LockInfo fair = classify(k);
        QCOMPARE(fair.kind, LockInfo::Kind::Fair);
        QVERIFY(fair.warnings.isEmpty());
        k.aux.get<FairQueueAux>().deadlines[kOther] = k.nowMs - 1;
        QVERIFY(classify(k).warnings.join(QLatin1Char(' ')).contains(QLatin1String("jammed")));
        const LockInfo tx = classify(hash({ { kOwner + ":0123456789abcdef0123456789abcdef", "1" } }));
        QCOMPARE(tx.kind, LockInfo::Kind::Reentrant);
    }

    void readWrite()
    {
        KeySnapshot k = hash({ { "mode", "read" }, { kOwner, "2" }, { kOther, "1" } });
        k.aux.get<ReaderTimeoutsAux>().live = { { kOwner, 2 }, { kOther, 1 } };
        LockInfo i = classify(k);
        QCOMPARE(i.kind, LockInfo::Kind::ReadWrite);
        QCOMPARE(i.mode, "read");
        QCOMPARE(i.holders.size(), 2);
        QVERIFY(i.warnings.isEmpty());

        k.aux.get<ReaderTimeoutsAux>().live[kOther] = 0;
        i = classify(k);
        QVERIFY(i.holders.at(1).deadReader);
        QVERIFY(i.warnings.join(QLatin1Char(' ')).contains(QLatin1String("dead")));

        i = classify(hash({ { "mode", "write" }, { kOwner + ":write", "1" }, { kOwner, "1" } }));
        QCOMPARE(i.mode, "write");
        QVERIFY(i.holders.at(0).writer);
        QVERIFY(i.warnings.isEmpty());
        // Mode and fields disagree: corrupt or foreign, and said so.
        QVERIFY(!classify(hash({ { "mode", "write" }, { kOwner, "1" } })).warnings.isEmpty());
        QVERIFY(!classify(hash({ { "mode", "read" }, { kOwner + ":write", "1" } })).warnings.isEmpty());
    }

    void otherImplementationsAndMissingTtl()
    {
        const LockInfo other = classify(hash({ { kClient + ":" + kClient, "1" } }));
        QCOMPARE(other.kind, LockInfo::Kind::Reentrant);
        QVERIFY(other.evidence.join(QLatin1Char(' ')).contains(QLatin1String("non-Java")));
        // No TTL, but the user said this name is a lock: shown, with the reason it matters.
        KeySnapshot k = hash({ { kOwner, "1" } }, -1);
        k.declared = true;
        const LockInfo persisted = classify(k);
        QCOMPARE(persisted.kind, LockInfo::Kind::Reentrant);
        QVERIFY(persisted.warnings.join(QLatin1Char(' ')).contains(QLatin1String("no TTL")));
    }

    void lookAlikesStayUserData_data()
    {
        QTest::addColumn<Fields>("fields");
        QTest::addColumn<qint64>("pttl");
        QTest::newRow("non-numeric value") << Fields { { kOwner, "yes" } } << qint64(25000);
        QTest::newRow("zero count") << Fields { { kOwner, "0" } } << qint64(25000);
        QTest::newRow("plain hash") << Fields { { "name", "Ada" } } << qint64(25000);
        QTest::newRow("some other mode") << Fields { { "mode", "dark" }, { kOwner, "1" } } << qint64(25000);
        QTest::newRow("several owners, no TTL") << Fields { { kOwner, "1" }, { kOther, "1" } } << qint64(-1);
        QTest::newRow("zero count, no TTL") << Fields { { kOwner, "0" } } << qint64(-1);
        QTest::newRow("session counters that expire") << Fields { { kOwner, "3" }, { kOther, "9" } } << qint64(25000);
        QTest::newRow("write field without mode") << Fields { { kOwner + ":write", "1" } } << qint64(25000);
    }
    void lookAlikesStayUserData()
    {
        QFETCH(Fields, fields);
        QFETCH(qint64, pttl);
        const LockInfo i = classify(hash(fields, pttl));
        QCOMPARE(i.kind, LockInfo::Kind::NotALock);
        QVERIFY(!i.isLock());
    }

    // Issue 15 point 8: a lock hash nobody set a TTL on and nobody waits for is the classic stuck lock: shown, with
    // the warning that it never expires, at low confidence.
    void stuckLockWithoutTtlIsShown()
    {
        const LockInfo i = classify(hash({ { kOwner, "1" } }, -1));
        QCOMPARE(i.kind, LockInfo::Kind::Reentrant);
        QCOMPARE(i.confidence, LockInfo::Confidence::Low);
        QCOMPARE(i.ttlMs, qint64(-1));
        QVERIFY(i.warnings.value(0).contains(QLatin1String("never expires")));
        QVERIFY(i.warnings.value(0).contains(QLatin1String("force release")));
        // A read-write lock's writer left the same way.
        const LockInfo rw = classify(hash({ { "mode", "write" }, { kOwner + ":write", "1" } }, -1));
        QCOMPARE(rw.kind, LockInfo::Kind::ReadWrite);
        QVERIFY(rw.warnings.value(0).contains(QLatin1String("never expires")));
    }

    // Issue 15 point 10: a TTL, a Java thread id and one owner are what look-alike user data has too.
    void lookAlikeIsLowConfidence_data()
    {
        QTest::addColumn<int>("corroboration");
        QTest::addColumn<int>("confidence");
        QTest::newRow("shape and TTL only") << 0 << int(LockInfo::Confidence::Low);
        QTest::newRow("listener") << 1 << int(LockInfo::Confidence::High);
        QTest::newRow("shard listener") << 2 << int(LockInfo::Confidence::High);
        QTest::newRow("fencing token") << 3 << int(LockInfo::Confidence::High);
        QTest::newRow("fair queue") << 4 << int(LockInfo::Confidence::High);
        QTest::newRow("declared name") << 5 << int(LockInfo::Confidence::High);
    }
    void lookAlikeIsLowConfidence()
    {
        QFETCH(int, corroboration);
        QFETCH(int, confidence);
        KeySnapshot k = hash({ { kOwner, "1" } });
        switch (corroboration) {
        case 1:
            k.channelSubscribers = 1;
            break;
        case 2:
            k.shardSubscribers = 1;
            break;
        case 3:
            k.aux.get<FencedAux>().tokenKeyExists = true;
            break;
        case 4:
            k.aux.get<FairQueueAux>().queue = { kOther };
            break;
        case 5:
            k.declared = true;
            break;
        }
        LockInfo i = classify(k);
        QVERIFY(i.isLock());
        QCOMPARE(int(i.confidence), confidence);
        const QString text = lowConfidenceText(i);
        QCOMPARE(text.isEmpty(), confidence != int(LockInfo::Confidence::Low));
        if (!text.isEmpty()) {
            QVERIFY(text.contains(QLatin1String("application data that looks like a lock")));
            QVERIFY(text.contains(QLatin1String("has a TTL"))); // with the evidence
            corroborateByRenewals(i); // what the monitor does once it has seen a renewal
            QCOMPARE(i.confidence, LockInfo::Confidence::High);
            QVERIFY(lowConfidenceText(i).isEmpty());
        }
        // A reader whose timeout keys are all gone vouches for nothing; a live one does.
        KeySnapshot rw = hash({ { "mode", "read" }, { kOwner, "1" } });
        rw.aux.get<ReaderTimeoutsAux>().live = { { kOwner, 0 } };
        QCOMPARE(classify(rw).confidence, LockInfo::Confidence::Low);
        rw.aux.get<ReaderTimeoutsAux>().live = { { kOwner, 1 } };
        QCOMPARE(classify(rw).confidence, LockInfo::Confidence::High);
    }

    // Issue 15 point 11: Redisson's transactional write lock.
    void transactionalWriteLock()
    {
        const QByteArray field = kOwner + ":write:0123456789abcdef0123456789abcdef";
        const LockInfo i = classify(hash({ { "mode", "write" }, { field, "1" } }));
        QCOMPARE(i.kind, LockInfo::Kind::ReadWrite);
        QCOMPARE(i.mode, "write");
        QCOMPARE(i.holders.size(), 1);
        QVERIFY(i.holders.at(0).writer);
        QCOMPARE(i.holders.at(0).owner, field);
        QCOMPARE(i.holders.at(0).client, kClient);
        QCOMPARE(i.holders.at(0).thread, "731");
        QVERIFY(i.warnings.isEmpty());
        QVERIFY(i.evidence.join(QLatin1Char(' ')).contains(QLatin1String("transactional write lock")));
        // Without "mode" it is no read-write lock, and a writer field outside one is not a lock.
        QVERIFY(!classify(hash({ { field, "1" } })).isLock());
    }

    // Issue 15 point 11: a fair queue whose lock hash is gone blocks every later fair acquire.
    void orphanedFairQueue()
    {
        KeySnapshot k;
        k.name = "orders:42";
        k.type = "none";
        k.pttlMs = -2;
        k.nowMs = 1'800'000'000'000;
        QVERIFY(!classify(k).isLock()); // nothing at all
        k.aux.get<FairQueueAux>().queue = { kOther, kOwner };
        k.aux.get<FairQueueAux>().deadlines = { { kOther, k.nowMs - 5 }, { kOwner, k.nowMs + 60000 } };
        const LockInfo i = classify(k);
        QCOMPARE(i.kind, LockInfo::Kind::Fair);
        QVERIFY(i.holders.isEmpty());
        QCOMPARE(i.queue.size(), 2);
        QCOMPARE(i.queue.at(0).first, kOther);
        QCOMPARE(i.queue.at(0).second, k.nowMs - 5);
        QCOMPARE(i.waiters, 2);
        const QString warnings = i.warnings.join(QLatin1Char(' '));
        QVERIFY(warnings.contains(QLatin1String("orphaned")));
        QVERIFY(warnings.contains(QLatin1String("repair-queue orders:42")));
        QVERIFY(warnings.contains(QLatin1String("jammed")));
        // The deadline set alone, in deadline order.
        k.aux.get<FairQueueAux>().queue.clear();
        const LockInfo zsetOnly = classify(k);
        QCOMPARE(zsetOnly.kind, LockInfo::Kind::Fair);
        QCOMPARE(zsetOnly.queue.at(0).first, kOther);
        // Members that are not owners: some application's list.
        k.aux.get<FairQueueAux>().queue = { "job-1" };
        QVERIFY(!classify(k).isLock());
    }

    void declaredNameHoldingAnotherType()
    {
        KeySnapshot k;
        k.name = "orders:42";
        k.type = "string";
        k.declared = true;
        const LockInfo i = classify(k);
        QCOMPARE(i.kind, LockInfo::Kind::NotALock);
        QVERIFY(i.warnings.join(QLatin1Char(' ')).contains(QLatin1String("holds a string")));
        k.declared = false;
        QVERIFY(classify(k).warnings.isEmpty()); // an undeclared string is just a string
    }

    void severalOwnersWithAuxKeysAreLockShaped()
    {
        KeySnapshot k = hash({ { kOwner, "1" }, { kOther, "1" } });
        k.channelSubscribers = 2;
        const LockInfo i = classify(k);
        QCOMPARE(i.kind, LockInfo::Kind::Unknown);
        QVERIFY(i.warnings.join(QLatin1Char(' ')).contains(QLatin1String("owners in an exclusive lock")));
    }

    // The server's own answers for these (SCAN MATCH, KEYS) were checked against redis-server 7.0 by hand.
    void globsMatchAsRedisDoes_data()
    {
        QTest::addColumn<QByteArray>("pattern");
        QTest::addColumn<QByteArray>("key");
        QTest::addColumn<bool>("match");
        QTest::newRow("prefix") << QByteArray("lock:*") << QByteArray("lock:orders") << true;
        QTest::newRow("prefix, empty rest") << QByteArray("lock:*") << QByteArray("lock:") << true;
        QTest::newRow("prefix, other") << QByteArray("lock:*") << QByteArray("locks:x") << false;
        QTest::newRow("suffix") << QByteArray("*:lock") << QByteArray("jobs:nightly:lock") << true;
        QTest::newRow("suffix, longer") << QByteArray("*:lock") << QByteArray("a:locked") << false;
        QTest::newRow("case-sensitive") << QByteArray("lock:*") << QByteArray("LOCK:x") << false;
        QTest::newRow("question mark") << QByteArray("m?tex:*") << QByteArray("mutex:1") << true;
        QTest::newRow("class") << QByteArray("lock:[ab]*") << QByteArray("lock:b1") << true;
        QTest::newRow("negated class") << QByteArray("lock:[^ab]*") << QByteArray("lock:b1") << false;
        QTest::newRow("range") << QByteArray("lock:[0-9]") << QByteArray("lock:7") << true;
        QTest::newRow("reversed range") << QByteArray("lock:[9-0]") << QByteArray("lock:7") << true;
        QTest::newRow("escaped star") << QByteArray("lock:\\*") << QByteArray("lock:*") << true;
        QTest::newRow("escaped star, literal only") << QByteArray("lock:\\*") << QByteArray("lock:x") << false;
        QTest::newRow("backtracking") << QByteArray("*a*b*c") << QByteArray("xxaxxbxxbxxc") << true;
        QTest::newRow("backtracking, no end") << QByteArray("*a*b*c") << QByteArray("xxaxxbxxbxx") << false;
        QTest::newRow("binary") << QByteArray("lock:*") << QByteArray("lock:\0\xff", 8) << true;
    }

    void globsMatchAsRedisDoes()
    {
        QFETCH(QByteArray, pattern);
        QFETCH(QByteArray, key);
        QFETCH(bool, match);
        QCOMPARE(globMatch(pattern, key), match);
    }

    void stringLocks()
    {
        const LockInfo lock = classify(string("lock:orders", "3f1c9e0a-token", 25000));
        QCOMPARE(lock.kind, LockInfo::Kind::String);
        QCOMPARE(LockInfo::kindName(lock.kind), QByteArray("string"));
        QCOMPARE(lock.holders.size(), 1);
        QCOMPARE(lock.holders.first().owner, QByteArray("3f1c9e0a-token"));
        QCOMPARE(lock.ttlMs, qint64(25000));
        QCOMPARE(lock.waiters, -1); // nobody can wait on a channel for it

        // Outside the patterns, without a lease, with a value no token has, or one of Redisson's own strings: data.
        QVERIFY(!classify(string("lock:orders", "t", 25000, false)).isLock());
        QVERIFY(!classify(string("lock:orders", "t", -1)).isLock());
        QVERIFY(!classify(string("lock:orders", QByteArray(kMaxStringToken + 1, 'x'), 25000)).isLock());
        QVERIFY(classify(string("lock:orders", QByteArray(kMaxStringToken, 'x'), 25000)).isLock());
        QVERIFY(!classify(string("lock:orders", "", 25000)).isLock());
        // Issue 15 point 9: counters (semaphore permits, a count-down latch) are no locks, whatever their TTL.
        QVERIFY(!classify(string("lock:pool", "5", 25000)).isLock());
        QVERIFY(!classify(string("lock:pool", "-1", 25000)).isLock());
        QVERIFY(!classify(string("lock:pool", "0", 25000)).isLock());
        QVERIFY(classify(string("lock:pool", "5a", 25000)).isLock());
        QVERIFY(isCounterValue("42") && !isCounterValue("4 2") && !isCounterValue(" 42") && !isCounterValue(""));
        QVERIFY(!classify(string("redisson_lock_token:{lock:x}", "7", 25000)).isLock());
        QVERIFY(!classify(string("{lock:x}:" + kOwner + ":rwlock_timeout:1", "1", 25000)).isLock());
    }

    void stringLockPatterns()
    {
        const StringLockPatterns defaults(StringLockPatterns::defaults());
        QVERIFY(defaults.matches("lock:a") && defaults.matches("mutex:b") && defaults.matches("c:lock"));
        QVERIFY(!defaults.matches("orders:42"));
        QVERIFY(!StringLockPatterns().matches("lock:a"));
        QCOMPARE(StringLockPatterns({ "a:*", "", "a:*" }).patterns(), QList<QByteArray> { "a:*" });
    }
};

QTEST_GUILESS_MAIN(TestClassifier)
#include "tst_classifier.moc"

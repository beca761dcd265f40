// Protocol §8 classification on snapshots built by hand: every kind with its evidence, and the look-alikes that
// must stay user data.
#include "lockclassifier.h"

#include <QTest>

using namespace LockScope;

using Fields = QList<QPair<QByteArray, QByteArray>>;

namespace {
const QByteArray kClient = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac";
const QByteArray kOwner = kClient + ":731";
const QByteArray kOther = "0b5b1f6e-2f0e-4d5c-9a4b-1c2d3e4f5a6b:12";

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
        const LockInfo i = classify(hash({ { kOwner, "2" } }));
        QCOMPARE(i.kind, LockInfo::Kind::Reentrant);
        QCOMPARE(i.confidence, LockInfo::Confidence::High);
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
        k.tokenKeyExists = true;
        QCOMPARE(classify(k).kind, LockInfo::Kind::Fenced);
        k = hash({ { kOwner, "1" } });
        k.queue = { kOther };
        k.queueDeadlines = { { kOther, k.nowMs + 60000 } };
        const LockInfo fair = classify(k);
        QCOMPARE(fair.kind, LockInfo::Kind::Fair);
        QVERIFY(fair.warnings.isEmpty());
        k.queueDeadlines[kOther] = k.nowMs - 1;
        QVERIFY(classify(k).warnings.join(QLatin1Char(' ')).contains(QLatin1String("jammed")));
        const LockInfo tx = classify(hash({ { kOwner + ":0123456789abcdef0123456789abcdef", "1" } }));
        QCOMPARE(tx.kind, LockInfo::Kind::Reentrant);
    }

    void readWrite()
    {
        KeySnapshot k = hash({ { "mode", "read" }, { kOwner, "2" }, { kOther, "1" } });
        k.liveReadTimeouts = { { kOwner, 2 }, { kOther, 1 } };
        LockInfo i = classify(k);
        QCOMPARE(i.kind, LockInfo::Kind::ReadWrite);
        QCOMPARE(i.mode, "read");
        QCOMPARE(i.holders.size(), 2);
        QVERIFY(i.warnings.isEmpty());

        k.liveReadTimeouts[kOther] = 0;
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
        QTest::newRow("owner-shaped, nothing else") << Fields { { kOwner, "1" } } << qint64(-1);
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
};

QTEST_GUILESS_MAIN(TestClassifier)
#include "tst_classifier.moc"

// Pure functions under the transport and the lock layer: RESP framing, URLs, naming rules, read-only policy.
#include "kinds/locknames.h"
#include "redis/bytesformat.h"
#include "redis/commandpolicy.h"
#include "redis/connectionoptions.h"
#include "redis/respcodec.h"

#include <QRegularExpression>
#include <QTest>

#include <hiredis.h>

#include <vector>

using namespace LockScope;
using namespace Qt::Literals::StringLiterals;

class TestCodec : public QObject
{
    Q_OBJECT
private slots:
    void readerAssemblesRepliesSplitAnywhere()
    {
        const QByteArray wire = "+OK\r\n:42\r\n$5\r\nhe\0lo\r\n*3\r\n$-1\r\n*1\r\n:-7\r\n-ERR boom\r\n"_ba;
        // Feed one byte at a time: replies must come out whole and in order regardless of TCP segmentation.
        RespReader reader;
        QList<RedisValue> replies;
        for (char c : wire) {
            reader.feed(&c, 1);
            RedisValue v;
            while (reader.next(&v) == RespReader::Status::Reply)
                replies << v;
        }
        QCOMPARE(replies.size(), 4);
        QCOMPARE(replies.at(0), RedisValue::status("OK"));
        QCOMPARE(replies.at(1), RedisValue::integer(42));
        QCOMPARE(replies.at(2), RedisValue::string(QByteArray("he\0lo", 5)));
        QCOMPARE(replies.at(3),
            RedisValue::array(
                { RedisValue::nil(), RedisValue::array({ RedisValue::integer(-7) }), RedisValue::error("ERR boom") }));
    }

    void readerRejectsGarbage()
    {
        RespReader reader;
        reader.feed("?what\r\n", 7);
        RedisValue v;
        QString error;
        QCOMPARE(reader.next(&v, &error), RespReader::Status::ProtocolError);
        QVERIFY(!error.isEmpty());
    }

    // Found by tests/fuzz/fuzz_resp (regress-huge-array-header): 12 bytes made hiredis reserve 2.4 GB at once.
    void readerRefusesHugeArrayHeaders()
    {
        RespReader reader;
        reader.feed("*300000000\r\n", 12);
        RedisValue v;
        QString error;
        QCOMPARE(reader.next(&v, &error), RespReader::Status::ProtocolError);
        QVERIFY2(error.contains(QLatin1String("300000000")), qPrintable(error));
        RespReader fine;
        fine.feed("*2\r\n:1\r\n:2\r\n", 12);
        QCOMPARE(fine.next(&v), RespReader::Status::Reply);
        QCOMPARE(v.size(), 2);
    }

    void formatterIsBinarySafe()
    {
        const QByteArray bytes = formatCommand({ "SET", QByteArray("k\0\r\n", 4), "" });
        QCOMPARE(bytes, "*3\r\n$3\r\nSET\r\n$4\r\nk\0\r\n\r\n$0\r\n\r\n"_ba);
    }

    // Our formatter writes what hiredis's does, for any arguments: argument counts and lengths of one to several
    // digits, empty and binary arguments, and appended after bytes already in the buffer (a pipeline).
    void formatterWritesHiredisBytes()
    {
        QList<QList<QByteArray>> commands { { "PING" }, { "TYPE", "orders:42" }, { "SET", "", QByteArray(1, '\0') } };
        QList<QByteArray> many { "HMGET", "k" };
        for (int i = 0; i < 120; ++i)
            many << QByteArray::number(i * 7919);
        commands << many;
        commands << QList<QByteArray> { "SET", QByteArray(123457, 'x'), QByteArray("\xff\r\n$3\r\n\0", 8) };
        QByteArray pipeline = "*1\r\n$4\r\nPING\r\n";
        QByteArray expected = pipeline;
        for (const QList<QByteArray> &argv : commands) {
            std::vector<const char *> args;
            std::vector<size_t> lengths;
            for (const QByteArray &a : argv) {
                args.push_back(a.constData());
                lengths.push_back(size_t(a.size()));
            }
            char *target = nullptr;
            const int len = redisFormatCommandArgv(&target, int(argv.size()), args.data(), lengths.data());
            QVERIFY(len > 0);
            const QByteArray hiredis(target, len);
            redisFreeCommand(target);
            QCOMPARE(formatCommand(argv), hiredis);
            appendCommand(&pipeline, argv);
            expected += hiredis;
        }
        QCOMPARE(pipeline, expected);
    }

    void urlParsing_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("port");
        QTest::addColumn<QByteArray>("user");
        QTest::addColumn<QByteArray>("password");
        QTest::addColumn<int>("db");
        QTest::addColumn<bool>("tls");
        QTest::newRow("plain") << "redis://10.0.0.5"
                               << "10.0.0.5" << 6379 << QByteArray() << QByteArray() << 0 << false;
        QTest::newRow("full") << "rediss://alice:s%40cret%3A@cache.example:6380/3"
                              << "cache.example" << 6380 << QByteArray("alice") << QByteArray("s@cret:") << 3 << true;
        QTest::newRow("password only") << "redis://:pw@127.0.0.1:7000/0"
                                       << "127.0.0.1" << 7000 << QByteArray() << QByteArray("pw") << 0 << false;
        // Found by tests/fuzz/fuzz_url (regress-space-in-user): its display URL did not parse again.
        QTest::newRow("space in user") << "redis://a%20b:pw@cache.example/2"
                                       << "cache.example" << 6379 << QByteArray("a b") << QByteArray("pw") << 2
                                       << false;
    }
    void urlParsing()
    {
        QFETCH(QString, url);
        RedisError error;
        const ConnectionOptions o = ConnectionOptions::fromUrl(url, &error);
        QVERIFY2(!error.isError(), qPrintable(error.toString()));
        QTEST(o.host, "host");
        QTEST(int(o.port), "port");
        QTEST(o.user, "user");
        QTEST(o.password, "password");
        QTEST(o.db, "db");
        QTEST(o.tls, "tls");
        QVERIFY(!o.toDisplayUrl().contains(QString::fromUtf8(o.password.isEmpty() ? "\x01" : o.password)));
        // Saved profiles store the display URL and parse it again.
        const ConnectionOptions back = ConnectionOptions::fromUrl(o.toDisplayUrl(), &error);
        QVERIFY2(!error.isError(), qPrintable(o.toDisplayUrl()));
        QCOMPARE(back.host, o.host);
        QCOMPARE(back.user, o.user);
        QCOMPARE(back.db, o.db);
        QVERIFY(back.password.isEmpty());
    }

    void badUrlsAreTypedErrors_data()
    {
        QTest::addColumn<QString>("url");
        QTest::newRow("scheme") << "http://127.0.0.1:6379";
        QTest::newRow("db") << "redis://127.0.0.1:6379/abc";
        QTest::newRow("no host") << "redis://";
        QTest::newRow("junk") << "not a url at all";
    }
    void badUrlsAreTypedErrors()
    {
        QFETCH(QString, url);
        RedisError error;
        ConnectionOptions::fromUrl(url, &error);
        QCOMPARE(error.kind(), RedisError::Kind::InvalidArgument);
    }

    void readOnlyPolicy()
    {
        QVERIFY(isReadOnlyCommand({ "hgetall", "x" }));
        QVERIFY(isReadOnlyCommand({ "CONFIG", "get", "notify-keyspace-events" }));
        QVERIFY(!isReadOnlyCommand({ "CONFIG", "SET", "notify-keyspace-events", "Kx" }));
        QVERIFY(!isReadOnlyCommand({ "EVALSHA", "abc", "0" }));
        QVERIFY(!isReadOnlyCommand({ "DEL", "x" }));
        QVERIFY(!isReadOnlyCommand({ "PUBLISH", "c", "0" }));
        QVERIFY(!isReadOnlyCommand({ "SOMEFUTURECOMMAND" }));
        QVERIFY(!isReadOnlyCommand({}));
    }

    void redissonNamingRules()
    {
        QCOMPARE(LockNames::lockChannel("orders:42"), "redisson_lock__channel:{orders:42}"_ba);
        QCOMPARE(LockNames::lockChannel("a{b}"), "redisson_lock__channel:a{b}"_ba);
        QCOMPARE(LockNames::suffixName("orders", "x"), "{orders}:x"_ba);
        QCOMPARE(LockNames::suffixName("{orders}", "x"), "{orders}:x"_ba);
        QCOMPARE(LockNames::unlockLatch("n", "00ff"), "redisson_unlock_latch:{n}:00ff"_ba);
    }

    void identities()
    {
        const QByteArray id = LockNames::newClientId();
        QVERIFY(
            QRegularExpression(QStringLiteral("^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$"))
                .match(QString::fromLatin1(id))
                .hasMatch());
        QVERIFY(QRegularExpression(QStringLiteral("^[0-9a-f]{32}$"))
                    .match(QString::fromLatin1(LockNames::newRequestId()))
                    .hasMatch());
        QVERIFY(LockNames::newRequestId() != LockNames::newRequestId());

        QByteArray client, token;
        QVERIFY(LockNames::splitOwner(id + ":731:write", &client, &token));
        QCOMPARE(client, id);
        QCOMPARE(token, "731:write"_ba);
        QVERIFY(!LockNames::splitOwner("not-a-uuid:1", &client, &token));
        QVERIFY(!LockNames::splitOwner(id + ":", &client, &token));
    }

    void escapingKeepsBinaryNamesReadable()
    {
        QCOMPARE(escapeBytes(QByteArray("a\0b\xff\\", 5)), QStringLiteral("a\\x00b\\xff\\\\"));
        QCOMPARE(escapeBytes("锁:订单"), QStringLiteral("锁:订单"));
        QVERIFY(escapeBytes(QByteArray(70000, 'x'), 100).size() < 200);
        // Found by tests/fuzz/fuzz_classifier (regress-c1-control): U+009B (CSI) passed through as well-formed UTF-8.
        QCOMPARE(escapeBytes("a\xc2\x9b"
                             "2J\xc2\xa0"
                             "b"),
            QStringLiteral("a\\xc2\\x9b2J\u00a0b"));
    }

    // What list and show print is what a person types back: every byte string survives escape then unescape.
    void escapedNamesReadBackToTheirBytes()
    {
        const QList<QByteArray> names { QByteArray("a\0b\xff\\", 5), "锁:订单", "orders:42", "\\x41", "a\\b",
            QByteArray("\x80\xc3\x28\xc2\x9b\t\n", 7), "back\\", QByteArray(1, '\0') };
        for (const QByteArray &name : names)
            QCOMPARE(unescapeBytes(escapeBytes(name)), name);
        // A backslash escapeBytes() would never print alone is taken as written.
        QCOMPARE(unescapeBytes(QStringLiteral("a\\b\\x4")), QByteArray("a\\b\\x4"));
        QCOMPARE(unescapeBytes(QStringLiteral("\\x4g")), QByteArray("\\x4g"));
        QCOMPARE(unescapeBytes(QStringLiteral("\\x41\\xFF")), QByteArray("A\xff"));

        QCOMPARE(bytesFromHex(QStringLiteral("6c6f636b00ff")), std::optional<QByteArray>(QByteArray("lock\0\xff", 6)));
        QCOMPARE(bytesFromHex(QStringLiteral("6c 6f")), std::optional<QByteArray>(QByteArray("lo")));
        QVERIFY(!bytesFromHex(QStringLiteral("6c6")));
        QVERIFY(!bytesFromHex(QStringLiteral("zz")));
        QVERIFY(!bytesFromHex(QString()));
        QVERIFY(!bytesFromHex(QStringLiteral("６c"))); // a full-width digit is not a hex digit
    }
};

QTEST_GUILESS_MAIN(TestCodec)
#include "tst_codec.moc"

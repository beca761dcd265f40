#pragma once

#include <QByteArray>
#include <QString>

namespace LockScope {

// Compact JSON text written straight into bytes, for output too big to build as a QJsonObject first (a listing of a
// million locks): the bytes are the very ones QJsonDocument::toJson(Compact) writes for the same values, so a reader
// cannot tell which wrote them. Keys are written in the order given; QJsonObject sorts its keys, so callers that must
// match it give them sorted. Commas are the writer's business.
class JsonWriter
{
public:
    explicit JsonWriter(QByteArray *out)
        : m_out(out)
    { }

    void beginObject();
    void endObject();
    void beginArray();
    void endArray();
    JsonWriter &key(const char *latin1Key); // a plain ASCII key, needing no escapes

    // Raw bytes as the CLI shows them (jsonText()): valid UTF-8 as it is, anything else with its bytes escaped.
    void bytes(const QByteArray &value);
    void latin1(const char *text); // ASCII text
    void text(const QString &text);
    void number(qint64 value);
    // A fraction as QJsonDocument writes one: the shortest text that reads back as the same double.
    void real(double value);
    void boolean(bool value);
    void null();

private:
    void separate();
    void escaped(const char *data, qsizetype size);

    QByteArray *m_out;
    bool m_first = true; // nothing written yet in the innermost object or array
};

} // namespace LockScope

#pragma once

#include <QByteArrayList>
#include <QFile>
#include <QList>
#include <QStringList>

namespace LockScope::Test {

// One command of a transcript in the docs: what follows "$ lockscope-cli " split as a shell would (single quotes
// only, which is all the docs use), and the lines it printed.
struct TranscriptCommand
{
    QStringList args;
    QByteArrayList printed;
};

inline QStringList shellWords(const QByteArray &line)
{
    QStringList words;
    QByteArray word;
    bool quoted = false, inWord = false;
    for (const char c : line) {
        if (c == '\'') {
            quoted = !quoted;
            inWord = true;
        } else if (c == ' ' && !quoted) {
            if (inWord)
                words << QString::fromUtf8(word);
            word.clear();
            inWord = false;
        } else {
            word += c;
            inWord = true;
        }
    }
    if (inWord)
        words << QString::fromUtf8(word);
    return words;
}

// The ```text block of a markdown file that contains `marker`, as commands and what each printed; empty when there
// is no such block (the test then fails on it, so that a doc edit cannot drop an example unnoticed).
inline QList<TranscriptCommand> docTranscript(const QString &path, const QByteArray &marker)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QByteArrayList lines = file.readAll().split('\n');
    QList<TranscriptCommand> block;
    bool inBlock = false;
    for (const QByteArray &line : lines) {
        if (!inBlock && line == "```text") {
            inBlock = true;
            block.clear();
        } else if (inBlock && line == "```") {
            inBlock = false;
            for (const TranscriptCommand &c : std::as_const(block)) {
                if (c.args.join(QLatin1Char(' ')).toUtf8().contains(marker) || c.printed.join('\n').contains(marker))
                    return block;
            }
        } else if (inBlock && line.startsWith("$ lockscope-cli ")) {
            block.append({ shellWords(line.mid(16)), {} });
        } else if (inBlock && !block.isEmpty()) {
            block.last().printed << line;
        }
    }
    return {};
}

} // namespace LockScope::Test

#include "texttable.h"

#include <QStringView>

namespace LockScope::Cli {

namespace {
// East Asian Wide and Fullwidth code points (Unicode's EastAsianWidth.txt, W and F), in the blocks a lock name, an
// owner or a translated header can hold.
bool isWide(char32_t u)
{
    return (u >= 0x1100 && u <= 0x115f) || (u >= 0x2e80 && u <= 0x303e) || (u >= 0x3041 && u <= 0x33ff)
        || (u >= 0x3400 && u <= 0x4dbf) || (u >= 0x4e00 && u <= 0x9fff) || (u >= 0xa000 && u <= 0xa4cf)
        || (u >= 0xac00 && u <= 0xd7a3) || (u >= 0xf900 && u <= 0xfaff) || (u >= 0xfe30 && u <= 0xfe4f)
        || (u >= 0xff00 && u <= 0xff60) || (u >= 0xffe0 && u <= 0xffe6) || (u >= 0x1f300 && u <= 0x1f64f)
        || (u >= 0x20000 && u <= 0x3fffd);
}
} // namespace

int displayWidth(const QString &text)
{
    int width = 0;
    for (const char32_t u : QStringView(text).toUcs4()) {
        const QChar::Category category = QChar::category(u);
        if (category == QChar::Mark_NonSpacing || category == QChar::Mark_Enclosing || u == 0x200b)
            continue;
        width += isWide(u) ? 2 : 1;
    }
    return width;
}

QString textTable(const QList<QStringList> &rows)
{
    QList<int> widths;
    for (const QStringList &row : rows)
        for (int i = 0; i < row.size(); ++i) {
            if (widths.size() <= i)
                widths << 0;
            widths[i] = qMax(widths[i], displayWidth(row.at(i)));
        }
    QString out;
    for (const QStringList &row : rows) {
        QString line;
        for (int i = 0; i < row.size(); ++i) {
            line += row.at(i);
            if (i + 1 < row.size())
                line += QString(widths[i] + 2 - displayWidth(row.at(i)), QLatin1Char(' '));
        }
        // Trailing blanks only: a first cell that is empty still holds its column.
        while (line.endsWith(QLatin1Char(' ')))
            line.chop(1);
        out += line + QLatin1Char('\n');
    }
    return out;
}

} // namespace LockScope::Cli

// OutputLineSplitter: lines as the bytes arrive, in any chunking, with the terminal's carriage
// return, pieces of over-long lines on UTF-8 boundaries, and the last line without a newline.

#include <string>
#include <vector>

#include "evaluators/output_lines.h"
#include "test_main.h"
#include "test_support.h"

namespace test_output_lines {

using namespace sebo;

namespace {

// Feeds `text` in chunks of `chunk` bytes (0: all at once) and returns every line handed over.
std::vector<std::string> split(const std::string& text, std::size_t chunk, std::size_t max_line = 4096) {
    OutputLineSplitter splitter(max_line);
    std::vector<std::string> lines;
    const auto collect = [&](std::string_view line) { lines.emplace_back(line); };
    if (chunk == 0) chunk = text.size() + 1;
    for (std::size_t at = 0; at < text.size(); at += chunk) splitter.feed(std::string_view(text).substr(at, chunk), collect);
    splitter.finish(collect);
    return lines;
}

QStringList q(const std::vector<std::string>& lines) {
    QStringList out;
    for (const std::string& l : lines) out << QString::fromStdString(l);
    return out;
}

}  // namespace

class TestOutputLines : public QObject {
    Q_OBJECT
private slots:
    void lines_end_at_newlines_whatever_the_chunks() {
        const std::string text = "first\nsecond line\r\n\nlast without newline";
        const QStringList expected = {"first", "second line", "", "last without newline"};
        for (std::size_t chunk : {0, 1, 2, 3, 7})
            QCOMPARE(q(split(text, chunk)), expected);
    }

    void a_line_arrives_before_the_stream_ends() {
        OutputLineSplitter splitter;
        std::vector<std::string> lines;
        const auto collect = [&](std::string_view line) { lines.emplace_back(line); };
        splitter.feed("epoch 1 lo", collect);
        QVERIFY(lines.empty());
        splitter.feed("ss 0.5\nepoch 2", collect);
        QCOMPARE(q(lines), QStringList({"epoch 1 loss 0.5"}));
        splitter.feed("\r", collect);  // "\r" then maybe "\n": undecided until the next byte
        QCOMPARE(lines.size(), std::size_t{1});
        splitter.feed("\n", collect);
        QCOMPARE(q(lines), QStringList({"epoch 1 loss 0.5", "epoch 2"}));
        splitter.finish(collect);
        QCOMPARE(lines.size(), std::size_t{2});  // nothing pending
    }

    void carriage_return_starts_the_line_over() {
        const std::string text = "progress  10%\rprogress  55%\rprogress 100%\ndone\n";
        for (std::size_t chunk : {0, 1, 4})
            QCOMPARE(q(split(text, chunk)), QStringList({"progress 100%", "done"}));
        // A carriage return at the very end leaves the line as it was drawn.
        QCOMPARE(q(split("waiting\r", 0)), QStringList({"waiting"}));
    }

    void long_lines_come_in_pieces_on_character_boundaries() {
        // "é" is two bytes: with a limit of 5 bytes, "aéé" (5 bytes) fits, "aééé" (7) does not.
        QCOMPARE(q(split("abcdefghij\n", 0, 4)), QStringList({"abcd", "efgh", "ij"}));
        const std::string accents = "a\xC3\xA9\xC3\xA9\xC3\xA9\n";  // a é é é
        for (std::size_t chunk : {0, 1, 3}) {
            const std::vector<std::string> lines = split(accents, chunk, 4);
            QCOMPARE(q(lines), QStringList({QString::fromUtf8("aé"), QString::fromUtf8("éé")}));
        }
        // No newline ever: memory stays bounded, every byte is handed over once.
        std::string endless(10000, 'x');
        const std::vector<std::string> pieces = split(endless, 333, 1000);
        QCOMPARE(pieces.size(), std::size_t{10});
        for (const std::string& p : pieces) QCOMPARE(p.size(), std::size_t{1000});
    }
};

SEBO_TEST_MAIN(TestOutputLines)
}  // namespace test_output_lines
#include "test_output_lines.moc"

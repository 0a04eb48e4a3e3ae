// The engine's folders are floors (docs/architecture.md, "The engine's floors"): a file may include
// its own floor and the floors below it, never one above. The engine is one library built from a
// glob, so nothing else keeps the order; this test reads every include of engine/ and the order
// written in the docs, and fails on an include that points up (naming the file, line and floors).
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "test_main.h"
#include "test_support.h"

namespace test_layer_order {

namespace {

namespace fs = std::filesystem;

struct UpwardInclude {
    std::string file;
    int line = 0;
    std::string included;  // the floor the include points to
};

// The floors as docs/architecture.md lists them, lowest first: the line that starts with
// "Floors:" and names them separated by "→".
std::vector<std::string> documented_floors(const std::string& doc) {
    std::istringstream in(doc);
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("Floors:", 0) != 0) continue;
        std::vector<std::string> floors;
        const std::regex word("[a-z_]+");
        const std::string rest = line.substr(7);
        for (auto it = std::sregex_iterator(rest.begin(), rest.end(), word); it != std::sregex_iterator(); ++it)
            floors.push_back(it->str());
        return floors;
    }
    return {};
}

// The includes of `text` (a file of floor `floor`) that name a floor above it.
std::vector<UpwardInclude> upward_includes(const std::string& file, const std::string& text, const std::string& floor,
                                           const std::map<std::string, int>& rank) {
    std::vector<UpwardInclude> found;
    const std::regex include("^\\s*#\\s*include\\s*\"([A-Za-z_]+)/");
    std::istringstream in(text);
    std::string line;
    int number = 0;
    while (std::getline(in, line)) {
        ++number;
        std::smatch m;
        if (!std::regex_search(line, m, include)) continue;
        const auto target = rank.find(m[1].str());
        if (target != rank.end() && target->second > rank.at(floor)) found.push_back({file, number, m[1].str()});
    }
    return found;
}

std::string read_text(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

}  // namespace

class TestLayerOrder : public QObject {
    Q_OBJECT

private:
    const fs::path source_ = SEBO_SOURCE_DIR;
    std::vector<std::string> floors_;
    std::map<std::string, int> rank_;

private slots:
    void initTestCase() {
        floors_ = documented_floors(read_text(source_ / "docs" / "architecture.md"));
        QVERIFY2(!floors_.empty(), "docs/architecture.md has no 'Floors:' line");
        for (std::size_t i = 0; i < floors_.size(); ++i) rank_[floors_[i]] = static_cast<int>(i);
    }

    // Every folder of engine/ is a floor in the docs, once, and every documented floor exists.
    void everyFolderIsAFloor() {
        std::vector<std::string> folders;
        for (const auto& entry : fs::directory_iterator(source_ / "engine"))
            if (entry.is_directory()) folders.push_back(entry.path().filename().string());
        std::sort(folders.begin(), folders.end());
        std::vector<std::string> documented = floors_;
        std::sort(documented.begin(), documented.end());
        QCOMPARE(documented, folders);
        QCOMPARE(rank_.size(), floors_.size());
        QCOMPARE(floors_.front(), std::string("core"));
    }

    // The scanner itself: an include of a higher floor is found with its line, one of the same or
    // a lower floor, a system header or a file of the same folder are not.
    void scannerFindsAnUpwardInclude() {
        const std::map<std::string, int> rank{{"core", 0}, {"space", 1}, {"optimize", 2}};
        const std::string text =
            "#include <vector>\n"
            "#include \"core/format.h\"\n"
            "#include \"space/search_space.h\"\n"
            "#include \"polytope.h\"\n"
            "  #  include \"optimize/homotopy.h\"  // up\n";
        const auto found = upward_includes("space/x.cpp", text, "space", rank);
        QCOMPARE(found.size(), std::size_t{1});
        QCOMPARE(found[0].line, 5);
        QCOMPARE(found[0].included, std::string("optimize"));
        QVERIFY(upward_includes("optimize/x.cpp", text, "optimize", rank).empty());
    }

    void noIncludePointsUp() {
        std::vector<UpwardInclude> found;
        int files = 0;
        for (const auto& entry : fs::recursive_directory_iterator(source_ / "engine")) {
            const fs::path& path = entry.path();
            if (!entry.is_regular_file() || (path.extension() != ".h" && path.extension() != ".cpp")) continue;
            const std::string relative = fs::relative(path, source_ / "engine").generic_string();
            const std::string floor = relative.substr(0, relative.find('/'));
            QVERIFY2(rank_.count(floor), qPrintable(QString::fromStdString("engine/" + relative + " is in no floor")));
            for (const UpwardInclude& u : upward_includes(relative, read_text(path), floor, rank_)) found.push_back(u);
            ++files;
        }
        QVERIFY(files > 200);
        QString message;
        for (const UpwardInclude& u : found)
            message += QString::fromStdString("engine/" + u.file + ":" + std::to_string(u.line) + " includes " + u.included +
                                              "/, a floor above its own\n");
        QVERIFY2(found.empty(), qPrintable(message));
    }
};

SEBO_TEST_MAIN(TestLayerOrder)
}  // namespace test_layer_order
#include "test_layer_order.moc"

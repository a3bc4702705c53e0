/*
 * Oracle: run the reference Java boilerpipe 1.2.0 over HTML files and print
 * its outputs as JSON lines, so the Python port can be compared against it.
 *
 * Usage:
 *   java -Xss64m -cp build:boilerpipe-1.2.0.jar:nekohtml.jar:xercesImpl.jar \
 *        Oracle <extractor> [<extractor> ...]  < tasks.tsv
 *
 * stdin: one task per line, "<id>\t<path>"; the file is UTF-8 text, gzip
 * compressed when the path ends in ".gz".
 * stdout: for every task and every extractor (in the order given), one JSON
 * object per line, pure ASCII (non-ASCII escaped as \\uXXXX):
 *   {"id", "extractor", "title", "text", "ms", "error"}
 * For the pseudo-extractor "blocks", "text" is replaced by "blocks": the
 * parsed document's text blocks before any filter runs.
 *
 * The boilerpipe jar must come first on the class path: it carries patched
 * NekoHTML classes that must win over those in nekohtml.jar.
 *
 * Only the JDK and the boilerpipe jars are used (no JSON library).
 */

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.StringReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.zip.GZIPInputStream;

import org.xml.sax.InputSource;

import de.l3s.boilerpipe.BoilerpipeExtractor;
import de.l3s.boilerpipe.document.TextBlock;
import de.l3s.boilerpipe.document.TextDocument;
import de.l3s.boilerpipe.extractors.ArticleExtractor;
import de.l3s.boilerpipe.extractors.ArticleSentencesExtractor;
import de.l3s.boilerpipe.extractors.CanolaExtractor;
import de.l3s.boilerpipe.extractors.DefaultExtractor;
import de.l3s.boilerpipe.extractors.KeepEverythingExtractor;
import de.l3s.boilerpipe.extractors.KeepEverythingWithMinKWordsExtractor;
import de.l3s.boilerpipe.extractors.LargestContentExtractor;
import de.l3s.boilerpipe.extractors.NumWordsRulesExtractor;
import de.l3s.boilerpipe.sax.BoilerpipeSAXInput;

public final class Oracle {

    static final String BLOCKS = "blocks";
    static final int MIN_K_WORDS = 15;
    static final List<String> NAMES = Arrays.asList(
            "article", "default", "largest", "canola", "keep_everything",
            "keep_everything_min_words", "num_words_rules", "article_sentences",
            BLOCKS);

    private Oracle() {
    }

    static BoilerpipeExtractor extractorFor(String name) {
        switch (name) {
            case "article": return ArticleExtractor.INSTANCE;
            case "default": return DefaultExtractor.INSTANCE;
            case "largest": return LargestContentExtractor.INSTANCE;
            case "canola": return CanolaExtractor.INSTANCE;
            case "keep_everything": return KeepEverythingExtractor.INSTANCE;
            case "keep_everything_min_words":
                return new KeepEverythingWithMinKWordsExtractor(MIN_K_WORDS);
            case "num_words_rules": return NumWordsRulesExtractor.INSTANCE;
            case "article_sentences": return ArticleSentencesExtractor.INSTANCE;
            default: return null;
        }
    }

    // ------------------------------------------------------------------ JSON

    static final char[] HEX = "0123456789abcdef".toCharArray();

    /** Append s as a JSON string literal; every char outside 0x20..0x7e is \\uXXXX. */
    static void str(StringBuilder sb, String s) {
        if (s == null) {
            sb.append("null");
            return;
        }
        sb.append('"');
        for (int i = 0, n = s.length(); i < n; i++) {
            char c = s.charAt(i);
            if (c == '"') {
                sb.append("\\\"");
            } else if (c == '\\') {
                sb.append("\\\\");
            } else if (c == '\n') {
                sb.append("\\n");
            } else if (c == '\r') {
                sb.append("\\r");
            } else if (c == '\t') {
                sb.append("\\t");
            } else if (c < 0x20 || c > 0x7e) {
                // UTF-16 code unit: non-BMP characters become a surrogate pair,
                // which is valid JSON.
                sb.append("\\u")
                  .append(HEX[(c >> 12) & 0xf]).append(HEX[(c >> 8) & 0xf])
                  .append(HEX[(c >> 4) & 0xf]).append(HEX[c & 0xf]);
            } else {
                sb.append(c);
            }
        }
        sb.append('"');
    }

    /** JSON has no NaN/Infinity: write null for those. */
    static void num(StringBuilder sb, double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            sb.append("null");
        } else {
            sb.append(Double.toString(d));
        }
    }

    /** A float as its shortest float representation (e.g. 0.1f -> 0.1). */
    static void num(StringBuilder sb, float f) {
        if (Float.isNaN(f) || Float.isInfinite(f)) {
            sb.append("null");
        } else {
            sb.append(Float.toString(f));
        }
    }

    static String describe(Throwable t) {
        String msg = t.getClass().getName();
        if (t.getMessage() != null) {
            msg += ": " + t.getMessage();
        }
        // Add the innermost cause and the top frames: enough to locate the bug.
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        if (root != t) {
            msg += " (caused by " + root.getClass().getName()
                    + (root.getMessage() != null ? ": " + root.getMessage() : "") + ")";
        }
        StackTraceElement[] st = root.getStackTrace();
        if (st != null && st.length > 0) {
            msg += " at " + st[0];
        }
        if (msg.length() > 2000) {
            msg = msg.substring(0, 2000) + "...";
        }
        return msg;
    }

    // ------------------------------------------------------------------ work

    static String readHtml(String path) throws IOException {
        byte[] raw = Files.readAllBytes(Paths.get(path));
        if (path.endsWith(".gz")) {
            try (InputStream in = new GZIPInputStream(
                    new java.io.ByteArrayInputStream(raw))) {
                ByteArrayOutputStream out = new ByteArrayOutputStream(raw.length * 4);
                byte[] buf = new byte[65536];
                int n;
                while ((n = in.read(buf)) > 0) {
                    out.write(buf, 0, n);
                }
                raw = out.toByteArray();
            }
        }
        // Malformed bytes become U+FFFD; a BOM, if any, is kept as U+FEFF.
        return new String(raw, StandardCharsets.UTF_8);
    }

    static TextDocument parse(String html) throws Exception {
        return new BoilerpipeSAXInput(new InputSource(new StringReader(html)))
                .getTextDocument();
    }

    static String record(String id, String name, String html, String readError) {
        StringBuilder sb = new StringBuilder(256);
        sb.append("{\"id\": ");
        str(sb, id);
        sb.append(", \"extractor\": ");
        str(sb, name);

        String title = null;
        String text = null;
        String error = readError;
        List<TextBlock> blocks = null;
        long t0 = System.nanoTime();
        if (error == null) {
            try {
                TextDocument doc = parse(html);
                title = doc.getTitle();
                if (BLOCKS.equals(name)) {
                    blocks = new ArrayList<>(doc.getTextBlocks());
                } else {
                    text = extractorFor(name).getText(doc);
                    // The extractor may have changed the title (it does not in
                    // 1.2.0, but read it again to report the final state).
                    title = doc.getTitle();
                }
            } catch (StackOverflowError e) {
                error = "java.lang.StackOverflowError";
            } catch (Throwable e) {
                error = describe(e);
            }
        }
        double ms = (System.nanoTime() - t0) / 1e6;

        sb.append(", \"title\": ");
        str(sb, title);
        if (BLOCKS.equals(name)) {
            sb.append(", \"blocks\": ");
            if (blocks == null) {
                sb.append("null");
            } else {
                blocksJson(sb, blocks);
            }
        } else {
            sb.append(", \"text\": ");
            str(sb, error == null ? text : null);
        }
        sb.append(", \"ms\": ");
        if (readError != null) {
            sb.append("null"); // nothing was parsed
        } else {
            num(sb, ms);
        }
        sb.append(", \"error\": ");
        str(sb, error);
        sb.append('}');
        return sb.toString();
    }

    static void blocksJson(StringBuilder sb, List<TextBlock> blocks) {
        sb.append('[');
        boolean first = true;
        for (TextBlock b : blocks) {
            if (!first) {
                sb.append(", ");
            }
            first = false;
            sb.append("{\"text\": ");
            str(sb, b.getText());
            sb.append(", \"num_words\": ").append(b.getNumWords());
            sb.append(", \"num_words_in_anchor_text\": ").append(b.getNumWordsInAnchorText());
            sb.append(", \"text_density\": ");
            num(sb, b.getTextDensity());
            sb.append(", \"link_density\": ");
            num(sb, b.getLinkDensity());
            sb.append(", \"offset_start\": ").append(b.getOffsetBlocksStart());
            sb.append(", \"offset_end\": ").append(b.getOffsetBlocksEnd());
            sb.append(", \"tag_level\": ").append(b.getTagLevel());
            sb.append(", \"labels\": [");
            Set<String> labels = b.getLabels();
            if (labels != null) {
                List<String> sorted = new ArrayList<>(labels);
                java.util.Collections.sort(sorted);
                for (int i = 0; i < sorted.size(); i++) {
                    if (i > 0) {
                        sb.append(", ");
                    }
                    str(sb, sorted.get(i));
                }
            }
            sb.append("], \"is_content\": ").append(b.isContent()).append('}');
        }
        sb.append(']');
    }

    public static void main(String[] args) throws IOException {
        if (args.length == 0) {
            System.err.println("usage: java Oracle <extractor> [...] < tasks.tsv");
            System.err.println("extractors: " + String.join(", ", NAMES));
            System.exit(2);
        }
        for (String a : args) {
            if (!NAMES.contains(a)) {
                System.err.println("Oracle: unknown extractor '" + a + "'; known: "
                        + String.join(", ", NAMES));
                System.exit(2);
            }
        }

        BufferedReader in = new BufferedReader(
                new InputStreamReader(System.in, StandardCharsets.UTF_8));
        Writer out = new java.io.BufferedWriter(
                new OutputStreamWriter(System.out, StandardCharsets.US_ASCII), 1 << 16);

        String line;
        while ((line = in.readLine()) != null) {
            if (line.isEmpty()) {
                continue;
            }
            int tab = line.indexOf('\t');
            String id = tab < 0 ? line : line.substring(0, tab);
            String path = tab < 0 ? line : line.substring(tab + 1);

            String html = null;
            String readError = null;
            try {
                html = readHtml(path);
            } catch (Throwable e) {
                readError = "read failed: " + describe(e);
            }
            for (String name : args) {
                String rec;
                try {
                    rec = record(id, name, html, readError);
                } catch (Throwable e) {
                    // e.g. OutOfMemoryError while building the JSON itself.
                    StringBuilder sb = new StringBuilder();
                    sb.append("{\"id\": ");
                    str(sb, id);
                    sb.append(", \"extractor\": ");
                    str(sb, name);
                    sb.append(", \"title\": null, ");
                    sb.append(BLOCKS.equals(name) ? "\"blocks\"" : "\"text\"");
                    sb.append(": null, \"ms\": null, \"error\": ");
                    str(sb, "output failed: " + describe(e));
                    sb.append('}');
                    rec = sb.toString();
                }
                out.write(rec);
                out.write('\n');
            }
            // One flush per task: the driver watches progress line by line.
            out.flush();
        }
        out.flush();
    }
}

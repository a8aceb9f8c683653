// SPDX-License-Identifier: Apache-2.0
package io.jccl.topo;

import io.jccl.JcclException;
import org.xml.sax.Attributes;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;
import org.xml.sax.helpers.DefaultHandler;

import javax.xml.XMLConstants;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.parsers.SAXParserFactory;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One element of an XML document as NCCL's topology files use it: a name, attributes in document
 * order and child elements (text is kept only for documents that have it, such as SVG). Equality
 * is structural, so a file read, written and read again compares equal to the first reading.
 *
 * <pre>{@code
 * XmlElement system = XmlElement.parse("<system version=\"1\"><cpu numaid=\"0\"/></system>", "inline");
 * String numa = system.children("cpu").get(0).attr("numaid").orElseThrow();   // "0"
 * }</pre>
 */
public final class XmlElement {
    private final String name;
    private final LinkedHashMap<String, String> attrs = new LinkedHashMap<>();
    private final List<XmlElement> children = new ArrayList<>();
    private String text = "";

    public XmlElement(String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("an element needs a name");
        }
        this.name = name;
    }

    public String name() {
        return name;
    }

    public Optional<String> attr(String key) {
        return Optional.ofNullable(attrs.get(key));
    }

    /** The attributes in the order they were set (document order for a parsed element). */
    public Map<String, String> attrs() {
        return Collections.unmodifiableMap(attrs);
    }

    /** Sets an attribute; a new key goes last, an existing one keeps its place. */
    public XmlElement set(String key, String value) {
        attrs.put(Objects.requireNonNull(key), Objects.requireNonNull(value, key));
        return this;
    }

    public XmlElement set(String key, long value) {
        return set(key, Long.toString(value));
    }

    /** Removes an attribute, if present. */
    public XmlElement remove(String key) {
        attrs.remove(key);
        return this;
    }

    public List<XmlElement> children() {
        return Collections.unmodifiableList(children);
    }

    public List<XmlElement> children(String childName) {
        return children.stream().filter(c -> c.name.equals(childName)).toList();
    }

    public Optional<XmlElement> child(String childName) {
        return children.stream().filter(c -> c.name.equals(childName)).findFirst();
    }

    /** Appends a child and returns it. */
    public XmlElement add(XmlElement child) {
        children.add(Objects.requireNonNull(child));
        return child;
    }

    /** Inserts a child at {@code index} and returns it. */
    public XmlElement add(int index, XmlElement child) {
        children.add(index, Objects.requireNonNull(child));
        return child;
    }

    public String text() {
        return text;
    }

    public XmlElement text(String t) {
        this.text = Objects.requireNonNull(t);
        return this;
    }

    /** A deep copy. */
    public XmlElement copy() {
        XmlElement c = new XmlElement(name);
        c.attrs.putAll(attrs);
        c.text = text;
        for (XmlElement child : children) {
            c.children.add(child.copy());
        }
        return c;
    }

    /** This element and all below it, depth first, parents before children. */
    public List<XmlElement> descendants() {
        List<XmlElement> out = new ArrayList<>();
        Deque<XmlElement> stack = new ArrayDeque<>();
        stack.push(this);
        while (!stack.isEmpty()) {
            XmlElement e = stack.pop();
            out.add(e);
            for (int i = e.children.size() - 1; i >= 0; i--) {
                stack.push(e.children.get(i));
            }
        }
        return out;
    }

    /**
     * Writes the element the way NCCL dumps its topology: two spaces of indent per level, one
     * element per line, {@code <x/>} when empty.
     */
    public String write() {
        StringBuilder sb = new StringBuilder();
        write(sb, 0);
        return sb.toString();
    }

    private void write(StringBuilder sb, int indent) {
        sb.append(" ".repeat(indent)).append('<').append(name);
        attrs.forEach((k, v) -> sb.append(' ').append(k).append("=\"").append(escape(v)).append('"'));
        if (children.isEmpty() && text.isEmpty()) {
            sb.append("/>\n");
            return;
        }
        sb.append('>');
        if (!text.isEmpty()) {
            sb.append(escape(text));
        }
        if (!children.isEmpty()) {
            sb.append('\n');
            for (XmlElement c : children) {
                c.write(sb, indent + 2);
            }
            sb.append(" ".repeat(indent));
        }
        sb.append("</").append(name).append(">\n");
    }

    static String escape(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            switch (c) {
                case '&' -> sb.append("&amp;");
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '"' -> sb.append("&quot;");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }

    /** Reads a file; a missing file or malformed XML is an invalid argument naming the file and line. */
    public static XmlElement read(Path file) {
        String content;
        try {
            content = Files.readString(file);
        } catch (IOException e) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "topology file",
                    "cannot read " + file + ": " + e.getMessage());
        }
        return parse(content, file.toString());
    }

    /**
     * Parses a document and returns its root element. {@code source} names the document in errors.
     * Document type declarations are refused (no external entities are ever fetched).
     */
    public static XmlElement parse(String document, String source) {
        try {
            SAXParserFactory f = SAXParserFactory.newInstance();
            f.setNamespaceAware(false);
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            Builder b = new Builder();
            f.newSAXParser().parse(new InputSource(new StringReader(document)), b);
            if (b.root == null) {
                throw JcclException.invalidArgument(JcclException.NO_RANK, "topology file", source + " has no element");
            }
            return b.root;
        } catch (SAXParseException e) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "topology file",
                    source + " line " + e.getLineNumber() + ": " + e.getMessage());
        } catch (SAXException | ParserConfigurationException e) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "topology file", source + ": " + e.getMessage());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Builds the tree from SAX events; text is trimmed, whitespace between elements dropped. */
    private static final class Builder extends DefaultHandler {
        XmlElement root;
        final Deque<XmlElement> open = new ArrayDeque<>();
        final Deque<StringBuilder> texts = new ArrayDeque<>();

        @Override
        public void startElement(String uri, String localName, String qName, Attributes a) {
            XmlElement e = new XmlElement(qName);
            for (int i = 0; i < a.getLength(); i++) {
                e.set(a.getQName(i), a.getValue(i));
            }
            if (open.isEmpty()) {
                root = e;
            } else {
                open.peek().add(e);
            }
            open.push(e);
            texts.push(new StringBuilder());
        }

        @Override
        public void characters(char[] ch, int start, int length) {
            if (!texts.isEmpty()) {
                texts.peek().append(ch, start, length);
            }
        }

        @Override
        public void endElement(String uri, String localName, String qName) {
            open.pop().text(texts.pop().toString().strip());
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof XmlElement e && e.name.equals(name) && e.attrs.equals(attrs)
                && e.children.equals(children) && e.text.equals(text);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, attrs, children, text);
    }

    @Override
    public String toString() {
        return write();
    }
}

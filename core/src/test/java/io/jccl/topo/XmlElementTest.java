// SPDX-License-Identifier: Apache-2.0
package io.jccl.topo;

import io.jccl.JcclException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class XmlElementTest {
    @Test
    void keepsAttributeOrderAndWritesNcclsLayout() {
        XmlElement e = XmlElement.parse("""
                <!-- a comment -->
                <system version="1"><cpu numaid="0" affinity="ff" arch="x86_64">
                <pci busid="0000:01:00.0" class='0x060400'/></cpu></system>""", "t");
        assertThat(e.child("cpu").orElseThrow().attrs().keySet()).containsExactly("numaid", "affinity", "arch");
        assertThat(e.write()).isEqualTo("""
                <system version="1">
                  <cpu numaid="0" affinity="ff" arch="x86_64">
                    <pci busid="0000:01:00.0" class="0x060400"/>
                  </cpu>
                </system>
                """);
        assertThat(XmlElement.parse(e.write(), "again")).isEqualTo(e);
    }

    @Test
    void escapesWhatItWritesAndKeepsText() {
        XmlElement e = new XmlElement("text").set("note", "a<b & \"c\"").text("x > y");
        String s = e.write();
        assertThat(s).isEqualTo("<text note=\"a&lt;b &amp; &quot;c&quot;\">x &gt; y</text>\n");
        XmlElement back = XmlElement.parse(s, "t");
        assertThat(back.attr("note")).contains("a<b & \"c\"");
        assertThat(back.text()).isEqualTo("x > y");
        assertThat(back).isEqualTo(e);
    }

    @Test
    void copiesAreDeepAndEqualityIsStructural() {
        XmlElement a = XmlElement.parse("<a x=\"1\"><b/><c y=\"2\"/></a>", "t");
        XmlElement b = a.copy();
        assertThat(b).isEqualTo(a).hasSameHashCodeAs(a);
        b.children().get(1).set("y", "3");
        assertThat(b).isNotEqualTo(a);
        assertThat(a.children().get(1).attr("y")).contains("2");
        assertThat(a.descendants()).extracting(XmlElement::name).containsExactly("a", "b", "c");
    }

    @Test
    void malformedDocumentsAreRefusedWithTheirLine() {
        assertThatThrownBy(() -> XmlElement.parse("<system>\n<cpu>\n</system>", "bad.xml"))
                .isInstanceOf(JcclException.class).hasMessageContaining("bad.xml line 3");
        assertThatThrownBy(() -> XmlElement.parse("", "empty.xml")).isInstanceOf(JcclException.class)
                .hasMessageContaining("empty.xml");
        assertThatThrownBy(() -> XmlElement.parse("<!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><x>&e;</x>", "dtd"))
                .isInstanceOf(JcclException.class).hasMessageContaining("dtd");
        assertThatThrownBy(() -> new XmlElement("")).isInstanceOf(IllegalArgumentException.class);
    }
}

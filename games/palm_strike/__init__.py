"""Palm Strike (色字頭上一掌拍): a colour-word slap game (a Stroop task)."""

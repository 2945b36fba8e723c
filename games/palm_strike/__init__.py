"""Palm Strike (色字頭上一掌拍): the Stroop colour-word slap game."""
